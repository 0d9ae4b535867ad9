// The attention graph for onnxruntime-web, built in the benchmark (no model file in the repository):
// out = Softmax(Q·Kᵀ · 1/√d, axis −1)·V for n × d float inputs q, k, v — the same computation as
// the other contenders, as ONNX operators (opset 13), encoded with onnx-proto.
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

/** The serialised ModelProto for one (n, d). */
export function attentionModel(n, d) {
  const float = onnx.TensorProto.DataType.FLOAT;
  const input = (name) => onnx.ValueInfoProto.create({
    name, type: { tensorType: { elemType: float, shape: { dim: [{ dimValue: n }, { dimValue: d }] } } },
  });
  const { INTS, INT } = onnx.AttributeProto.AttributeType;
  const graph = onnx.GraphProto.create({
    name: 'attention',
    node: [
      onnx.NodeProto.create({ opType: 'Transpose', input: ['k'], output: ['kt'], attribute: [{ name: 'perm', type: INTS, ints: [1, 0] }] }),
      onnx.NodeProto.create({ opType: 'MatMul', input: ['q', 'kt'], output: ['scores'] }),
      onnx.NodeProto.create({ opType: 'Mul', input: ['scores', 'scale'], output: ['scaled'] }),
      onnx.NodeProto.create({ opType: 'Softmax', input: ['scaled'], output: ['weights'], attribute: [{ name: 'axis', type: INT, i: -1 }] }),
      onnx.NodeProto.create({ opType: 'MatMul', input: ['weights', 'v'], output: ['out'] }),
    ],
    initializer: [onnx.TensorProto.create({ name: 'scale', dataType: float, dims: [], floatData: [1 / Math.sqrt(d)] })],
    input: ['q', 'k', 'v'].map(input),
    output: [input('out')],
  });
  const model = onnx.ModelProto.create({ irVersion: 8, opsetImport: [{ domain: '', version: 13 }], producerName: 'attention-playground bench', graph });
  return onnx.ModelProto.encode(model).finish();
}

/**
 * The same attention as one fused operator, com.microsoft's MultiHeadAttention (what ORT's transformer
 * optimiser turns the graph above into): query, key and value (1, n, d), one head, its default scale 1/√d.
 */
export function fusedAttentionModel(n, d) {
  const float = onnx.TensorProto.DataType.FLOAT;
  const input = (name) => onnx.ValueInfoProto.create({
    name, type: { tensorType: { elemType: float, shape: { dim: [{ dimValue: 1 }, { dimValue: n }, { dimValue: d }] } } },
  });
  const { INT } = onnx.AttributeProto.AttributeType;
  const graph = onnx.GraphProto.create({
    name: 'fused_attention',
    node: [onnx.NodeProto.create({ opType: 'MultiHeadAttention', domain: 'com.microsoft', input: ['q', 'k', 'v'], output: ['out'],
      attribute: [{ name: 'num_heads', type: INT, i: 1 }] })],
    input: ['q', 'k', 'v'].map(input),
    output: [input('out')],
  });
  const model = onnx.ModelProto.create({ irVersion: 8, opsetImport: [{ domain: '', version: 13 }, { domain: 'com.microsoft', version: 1 }],
    producerName: 'attention-playground bench', graph });
  return onnx.ModelProto.encode(model).finish();
}

