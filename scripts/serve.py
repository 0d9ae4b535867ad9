"""Serves a folder on 127.0.0.1 the way scripts/serve.sh needs: a static server (Python's own) that also
sends the two headers making its pages cross-origin isolated (COOP same-origin, COEP require-corp).
Isolated pages may use SharedArrayBuffer, so the playground runs a.attention on the wasm-threads module
(web/src/stepper/page_core.js). Every file the site loads is its own, so require-corp blocks nothing.

usage: python3 scripts/serve.py PORT DIRECTORY
"""
import functools
import http.server
import sys


class IsolatedHandler(http.server.SimpleHTTPRequestHandler):
    def end_headers(self):
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()


def main():
    port, directory = int(sys.argv[1]), sys.argv[2]
    handler = functools.partial(IsolatedHandler, directory=directory)
    with http.server.ThreadingHTTPServer(("127.0.0.1", port), handler) as server:
        server.serve_forever()


if __name__ == "__main__":
    main()
