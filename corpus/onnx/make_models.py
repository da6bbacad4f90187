#!/usr/bin/python3
"""Writes the small ONNX models of corpus/onnx/ that tests/onnx_import_test.sh
imports: one per mapping rule of `planck import` and one per error it
reports. Run with Debian's python3-onnx (apt-get install python3-onnx):

    /usr/bin/python3 corpus/onnx/make_models.py

The models are committed with their expected outputs; a test never runs
this script. Each model NAME.onnx may have NAME.args (the options of its
import, one line), and NAME.sched (the expected schedule) or NAME.err (the
expected message; the import exits 2). Regenerate the expected outputs with
tests/onnx_import_test.sh --update.
"""

import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
F = TensorProto.FLOAT


def save(name, graph, args=None, opset=13):
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], producer_name="make_models.py")
    model.ir_version = 8
    path = os.path.join(HERE, name + ".onnx")
    onnx.save(model, path)
    args_path = os.path.join(HERE, name + ".args")
    if args:
        with open(args_path, "w") as f:
            f.write(args + "\n")
    elif os.path.exists(args_path):
        os.remove(args_path)
    return path


def weight(name, *shape, dtype=np.float32):
    return numpy_helper.from_array(np.zeros(shape, dtype=dtype), name)


def mlp(name="mlp", args=None):
    """Initializers held, the graph input a param, the output planned, the rest planned buffers."""
    nodes = [
        helper.make_node("MatMul", ["x", "w1"], ["h"], name="fc1"),
        helper.make_node("Add", ["h", "b1"], ["hb"], name="bias1"),
        helper.make_node("Relu", ["hb"], ["a"], name="relu1"),
        helper.make_node("MatMul", ["a", "w2"], ["y"], name="fc2"),
    ]
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info("x", F, [4, 16])],
        [helper.make_tensor_value_info("y", F, [4, 8])],
        [weight("w1", 16, 32), weight("b1", 32), weight("w2", 32, 8)],
    )
    save(name, graph, args)


def names():
    """Names that are not storage names are mapped one to one, the ONNX name in a comment."""
    nodes = [
        helper.make_node("Relu", ["input.1"], ["/layer1/Relu_output_0"]),
        helper.make_node("Neg", ["/layer1/Relu_output_0"], ["onnx::Add_3"]),
        helper.make_node("Add", ["onnx::Add_3", "a_b"], ["a/b"]),
        helper.make_node("Sigmoid", ["a/b"], ["1"]),
        helper.make_node("Abs", ["1"], ["buffer"]),
        helper.make_node("Neg", ["buffer"], ["caf\u00e9"]),
    ]
    graph = helper.make_graph(
        nodes, "names",
        [helper.make_tensor_value_info("input.1", F, [8]), helper.make_tensor_value_info("a_b", F, [8])],
        [helper.make_tensor_value_info("caf\u00e9", F, [8])],
    )
    save("names", graph)


def dims(name, args):
    """A symbolic batch dimension, fixed by --dim."""
    nodes = [helper.make_node("Relu", ["x"], ["r"]), helper.make_node("MatMul", ["r", "w"], ["y"])]
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info("x", F, ["batch", 16])],
        [helper.make_tensor_value_info("y", F, ["batch", 4])],
        [weight("w", 16, 4)],
    )
    save(name, graph, args)


def dtypes():
    """Every dtype a schedule holds; a scalar and an empty tensor."""
    types = [
        TensorProto.FLOAT16, TensorProto.BFLOAT16, TensorProto.DOUBLE, TensorProto.INT8, TensorProto.UINT8,
        TensorProto.INT16, TensorProto.UINT16, TensorProto.INT32, TensorProto.UINT32, TensorProto.INT64,
        TensorProto.UINT64, TensorProto.BOOL,
    ]
    nodes = []
    outputs = []
    for t in types:
        out = "as_" + TensorProto.DataType.Name(t).lower()
        nodes.append(helper.make_node("Cast", ["x"], [out], to=t))
        outputs.append(helper.make_tensor_value_info(out, t, [2, 3]))
    nodes.append(helper.make_node("ReduceSum", ["x"], ["total"], keepdims=0))
    outputs.append(helper.make_tensor_value_info("total", F, []))
    nodes.append(helper.make_node("Slice", ["x", "zero", "zero", "axis"], ["empty"]))
    outputs.append(helper.make_tensor_value_info("empty", F, [0, 3]))
    graph = helper.make_graph(
        nodes, "dtypes", [helper.make_tensor_value_info("x", F, [2, 3])], outputs,
        [numpy_helper.from_array(np.array([0], dtype=np.int64), "zero"),
         numpy_helper.from_array(np.array([0], dtype=np.int64), "axis")],
    )
    save("dtypes", graph)


def inplace(name, args):
    """Elementwise ops ONNX Runtime runs in place get inplace=OUT:IN with --inplace."""
    nodes = [
        helper.make_node("MatMul", ["x", "w"], ["m"]),
        helper.make_node("Relu", ["m"], ["r"]),
        helper.make_node("Sigmoid", ["r"], ["s"]),
        helper.make_node("Add", ["s", "m"], ["t"]),
        helper.make_node("Tanh", ["t"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info("x", F, [8, 64])],
        [helper.make_tensor_value_info("y", F, [8, 64])],
        [weight("w", 64, 64)],
    )
    save(name, graph, args)


def loop():
    """Loop: a `loop` on its body's condition; the body's values are storage."""
    body = helper.make_graph(
        [
            helper.make_node("Add", ["acc_in", "step"], ["acc_out"]),
            helper.make_node("ReduceSum", ["acc_out"], ["total"], keepdims=0),
            helper.make_node("Less", ["total", "limit"], ["cond_out"]),
        ],
        "body",
        [
            helper.make_tensor_value_info("i", TensorProto.INT64, []),
            helper.make_tensor_value_info("cond_in", TensorProto.BOOL, []),
            helper.make_tensor_value_info("acc_in", F, [4]),
        ],
        [
            helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []),
            helper.make_tensor_value_info("acc_out", F, [4]),
        ],
    )
    nodes = [
        helper.make_node("Loop", ["trips", "cond", "x"], ["final"], body=body, name="loop"),
        helper.make_node("Relu", ["final"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes, "loop",
        [helper.make_tensor_value_info("x", F, [4])],
        [helper.make_tensor_value_info("y", F, [4])],
        [numpy_helper.from_array(np.array(3, dtype=np.int64), "trips"),
         numpy_helper.from_array(np.array(True), "cond"),
         numpy_helper.from_array(np.array([1, 1, 1, 1], dtype=np.float32), "step"),
         numpy_helper.from_array(np.array(100, dtype=np.float32), "limit")],
    )
    save("loop", graph)


def if_():
    """If: a `range` holding both branches, then the node."""
    then = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["then_y"])], "then", [], [helper.make_tensor_value_info("then_y", F, [4])])
    other = helper.make_graph(
        [helper.make_node("Neg", ["x"], ["else_y"])], "else", [], [helper.make_tensor_value_info("else_y", F, [4])])
    nodes = [
        helper.make_node("If", ["c"], ["picked"], then_branch=then, else_branch=other),
        helper.make_node("Abs", ["picked"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes, "if",
        [helper.make_tensor_value_info("c", TensorProto.BOOL, []), helper.make_tensor_value_info("x", F, [4])],
        [helper.make_tensor_value_info("y", F, [4])],
    )
    save("if", graph)


def scan():
    """Scan: a `range` whose first kernel hands the inputs to the body and whose last takes its outputs."""
    body = helper.make_graph(
        [helper.make_node("Add", ["sum_in", "row"], ["sum_out"]), helper.make_node("Identity", ["sum_out"], ["row_out"])],
        "body",
        [helper.make_tensor_value_info("sum_in", F, [3]), helper.make_tensor_value_info("row", F, [3])],
        [helper.make_tensor_value_info("sum_out", F, [3]), helper.make_tensor_value_info("row_out", F, [3])],
    )
    nodes = [helper.make_node("Scan", ["init", "rows"], ["total", "partial"], body=body, num_scan_inputs=1)]
    graph = helper.make_graph(
        nodes, "scan",
        [helper.make_tensor_value_info("init", F, [3]), helper.make_tensor_value_info("rows", F, [5, 3])],
        [helper.make_tensor_value_info("total", F, [3]), helper.make_tensor_value_info("partial", F, [5, 3])],
    )
    save("scan", graph)


def fold():
    """Shapes computed by nodes, as torch exports them: folded for shape inference, kept as kernels."""
    def const(name, values):
        return helper.make_node("Constant", [], [name], value=numpy_helper.from_array(np.array(values, dtype=np.int64)))
    nodes = [
        # Expand(x, Where(Equal(ConstantOfShape([3]) * -1, -1), ConstantOfShape([3]), [2, -1, -1]))
        const("three", [3]),
        helper.make_node("ConstantOfShape", ["three"], ["ones"],
                         value=numpy_helper.from_array(np.array([1], dtype=np.int64))),
        const("minus_one", -1),
        helper.make_node("Mul", ["ones", "minus_one"], ["negated"]),
        const("wanted", [2, -1, -1]),
        helper.make_node("Equal", ["wanted", "negated"], ["keep"]),
        helper.make_node("Where", ["keep", "ones", "wanted"], ["expand_shape"]),
        helper.make_node("Expand", ["x", "expand_shape"], ["expanded"]),
        # Reshape(expanded, Concat(Unsqueeze(Gather(Shape(expanded), 0)), [-1])) / 2 heads
        helper.make_node("Shape", ["expanded"], ["shape"]),
        const("zero", 0),
        helper.make_node("Gather", ["shape", "zero"], ["batch"]),
        const("two", 2),
        helper.make_node("Div", ["batch", "two"], ["half"]),
        const("axes", [0]),
        helper.make_node("Unsqueeze", ["half", "axes"], ["half_1d"]),
        const("rest", [-1]),
        helper.make_node("Concat", ["half_1d", "rest"], ["new_shape"], axis=0),
        helper.make_node("Reshape", ["expanded", "new_shape"], ["y"]),
        # Pad(z, Cast(Mod(Slice(Reshape(Transpose([[0, 1], [0, 2]]), [-1]), reversed), 3))) as torch pads windows
        const("pairs", [[0, 1], [0, 2]]),
        helper.make_node("Transpose", ["pairs"], ["columns"], perm=[1, 0]),
        const("flat", [-1]),
        helper.make_node("Reshape", ["columns", "flat"], ["flat_pairs"]),
        const("start", [-1]),
        const("end", [-1000]),
        const("axis0", [0]),
        const("back", [-1]),
        helper.make_node("Slice", ["flat_pairs", "start", "end", "axis0", "back"], ["reversed"]),
        const("three_1d", [3]),
        helper.make_node("Mod", ["reversed", "three_1d"], ["mod"]),
        helper.make_node("Cast", ["mod"], ["pads"], to=TensorProto.INT64),
        helper.make_node("Pad", ["z", "pads"], ["padded"], mode="constant"),
    ]
    graph = helper.make_graph(
        nodes, "fold",
        [helper.make_tensor_value_info("x", F, [1, 4, 8]), helper.make_tensor_value_info("z", F, [1, 4])],
        [helper.make_tensor_value_info("y", F, None), helper.make_tensor_value_info("padded", F, None)])
    save("fold", graph)


def external(name, write_data):
    """A weight kept as external data: its file is looked for, never read."""
    w = weight("w", 16, 16)
    w.data_location = TensorProto.EXTERNAL
    entry = w.external_data.add()
    entry.key = "location"
    entry.value = name + ".weights"
    w.ClearField("raw_data")
    nodes = [helper.make_node("MatMul", ["x", "w"], ["y"])]
    graph = helper.make_graph(
        nodes, name, [helper.make_tensor_value_info("x", F, [2, 16])], [helper.make_tensor_value_info("y", F, [2, 16])],
        [w])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="make_models.py")
    model.ir_version = 8
    with open(os.path.join(HERE, name + ".onnx"), "wb") as f:
        f.write(model.SerializeToString())
    data = os.path.join(HERE, name + ".weights")
    if write_data:
        with open(data, "wb") as f:
            f.write(bytes(16 * 16 * 4))
    elif os.path.exists(data):
        os.remove(data)


def data_dependent(name, args):
    """NonZero's count is known only when the model runs: --max-dim bounds it."""
    nodes = [helper.make_node("NonZero", ["x"], ["nz"], name="nonzero"), helper.make_node("Neg", ["nz"], ["y"])]
    save(name, helper.make_graph(
        nodes, name, [helper.make_tensor_value_info("x", F, [4])],
        [helper.make_tensor_value_info("y", TensorProto.INT64, [1, None])]), args)


def bad_models():
    with open(os.path.join(HERE, "bad_not_onnx.onnx"), "w") as f:
        f.write("schedule v1\nbuffer x CPU float32 4\n")
    # A model cut in the middle of its graph.
    mlp("bad_truncated")
    path = os.path.join(HERE, "bad_truncated.onnx")
    with open(path, "rb") as f:
        data = f.read()
    with open(path, "wb") as f:
        f.write(data[: len(data) // 2])

    dims("bad_symbolic", None)

    data_dependent("bad_data_dependent", None)

    nodes = [helper.make_node("Reshape", ["x", "shape"], ["y"], name="reshape")]
    save("bad_no_shape", helper.make_graph(
        nodes, "bad_no_shape",
        [helper.make_tensor_value_info("x", F, [4, 4]), helper.make_tensor_value_info("shape", TensorProto.INT64, [2])],
        [helper.make_tensor_value_info("y", F, None)]))

    nodes = [helper.make_node("Range", ["start", "limit", "delta"], ["y"], name="range")]
    save("bad_unknown_dim", helper.make_graph(
        nodes, "bad_unknown_dim",
        [helper.make_tensor_value_info(n, TensorProto.INT64, []) for n in ("start", "limit", "delta")],
        [helper.make_tensor_value_info("y", TensorProto.INT64, [None])]))

    nodes = [helper.make_node("Identity", ["s"], ["y"], name="copy")]
    save("bad_dtype_string", helper.make_graph(
        nodes, "bad_dtype_string", [helper.make_tensor_value_info("s", TensorProto.STRING, [3])],
        [helper.make_tensor_value_info("y", TensorProto.STRING, [3])]))

    nodes = [helper.make_node("Identity", ["c"], ["y"], name="copy")]
    save("bad_dtype_complex", helper.make_graph(
        nodes, "bad_dtype_complex", [helper.make_tensor_value_info("c", TensorProto.COMPLEX64, [3])],
        [helper.make_tensor_value_info("y", TensorProto.COMPLEX64, [3])]))

    nodes = [helper.make_node("Neg", ["t"], ["y"], name="second"), helper.make_node("Relu", ["x"], ["t"], name="first")]
    save("bad_order", helper.make_graph(
        nodes, "bad_order", [helper.make_tensor_value_info("x", F, [4])], [helper.make_tensor_value_info("y", F, [4])]))

    nodes = [helper.make_node("Add", ["x", "nowhere"], ["y"], name="add")]
    save("bad_undefined", helper.make_graph(
        nodes, "bad_undefined", [helper.make_tensor_value_info("x", F, [4])], [helper.make_tensor_value_info("y", F, [4])]))

    external("bad_missing_external", write_data=False)


def main():
    mlp()
    mlp("planned_inputs", "--planned-inputs --device CUDA:0 --align 64")
    names()
    dims("dims", "--dim batch=32")
    dtypes()
    inplace("inplace", "--inplace")
    inplace("inplace_off", None)
    loop()
    if_()
    scan()
    fold()
    data_dependent("data_dependent_bound", "--max-dim 4")
    external("external", write_data=True)
    bad_models()


if __name__ == "__main__":
    main()
