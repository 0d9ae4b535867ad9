"""Writes a static preview of every worked example from the attn CLI: an index page,
each example's readable table (English and 中文, as <pre> pages) and its full trace as JSON.

usage: /usr/bin/python3 make_preview_site.py path/to/attn OUT_DIR
Every label is escaped: example text goes into the page as text, never as HTML.
"""
import html
import json
import os
import subprocess
import sys


def attn(binary, *args):
    return subprocess.run([binary, *args], check=True, capture_output=True).stdout.decode()


def main(binary, out):
    os.makedirs(out, exist_ok=True)
    items = []
    for line in attn(binary, "examples").splitlines():
        eid = line.split()[0]
        doc = json.loads(attn(binary, "example", eid, "--json"))["example"]
        for lang in ("en", "zh"):
            # HTML with a charset, not .txt: a bare text/plain response garbles 中文 in browsers
            with open(os.path.join(out, f"{eid}.{lang}.html"), "w", encoding="utf-8") as f:
                f.write(f"<!doctype html><meta charset=utf-8><title>{html.escape(eid)}</title>"
                        f"<pre>{html.escape(attn(binary, 'example', eid, '--lang', lang))}</pre>")
        with open(os.path.join(out, f"{eid}.json"), "w", encoding="utf-8") as f:
            f.write(attn(binary, "example", eid, "--json"))
        e = html.escape
        items.append(
            f'<li><h2>{e(doc["title"]["en"])}<br><small lang="zh">{e(doc["title"]["zh"])}</small></h2>'
            f'<p>{e(doc["summary"]["en"])}</p><p lang="zh">{e(doc["summary"]["zh"])}</p>'
            f'<p><a href="{e(eid)}.en.html">stages (English)</a> · <a href="{e(eid)}.zh.html">各阶段（中文）</a> · '
            f'<a href="{e(eid)}.json">trace JSON</a></p></li>')
    page = ("<!doctype html><meta charset=utf-8><title>Attention Playground: worked examples</title>"
            "<style>body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}"
            "li{margin-bottom:1.5rem}h2{font-size:1.15rem;margin:0}</style>"
            "<h1>Attention Playground</h1><p>Every stage of attention for the worked examples of the two "
            "source articles, computed by the C++ core (<code>attn</code> CLI).</p><ol>" + "".join(items) + "</ol>")
    with open(os.path.join(out, "index.html"), "w", encoding="utf-8") as f:
        f.write(page)
    print(f"preview: {len(items)} examples written to {out}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
