"""Join the scanner's box networks into the files it runs (qwixx_scan/models/
box_classifier_<members>.onnx, one per group of qwixx_scan.box_model.GROUPS).

    python training/merge_networks.py

The networks are trained and tuned one by one (box_classifier_<member>.onnx,
written by train_box_classifier.py, which runs this after each export). The
scanner asks three of them about every box of a sheet: run as three ONNX
sessions that took 9.1-11.0 ms for 52-60 boxes, joined into one graph 6.7-7.8
ms on one core. Their first convolutions (six input channels, the costliest
layer) become one convolution with all their filters, whose output is split
per network after the channel-wise layers that follow it; every later layer
is the network's own. The joined graph computes what the networks do one by
one (the same logits on ONNX Runtime's CPU kernels: tests/test_read.py).
Needs onnx (training only).
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from qwixx_scan.box_model import GROUPS, INPUT_CHANNELS, INPUT_PX, network_path  # noqa: E402

#: Layers that work on each channel alone: run once on the joined channels.
_CHANNEL_WISE = ("Relu", "MaxPool")


def merge(members: str, out: Path) -> None:
    """Write the networks ``members`` (box_classifier_<member>.onnx each) as
    one graph to ``out``: input ``boxes`` (n x channels x px x px), output
    ``logits`` (n x len(members)), in ``members`` order. Whole or not at all."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    nodes, initializers, branch_outputs = [], [], []
    first_weights, first_biases, shared = [], [], None
    for member in members:
        graph = onnx.load(str(network_path(member))).graph
        chain = list(graph.node)
        if chain[0].op_type != "Conv" or chain[0].input[0] != graph.input[0].name:
            raise ValueError(f"network {member} does not start with a convolution")
        head = 1
        while chain[head].op_type in _CHANNEL_WISE:
            head += 1
        looks = [(n.op_type, [helper.get_attribute_value(a) for a in n.attribute])
                 for n in chain[:head]]
        if shared is None:
            shared = (chain[:head], looks)
        elif looks != shared[1]:
            raise ValueError(f"network {member} starts unlike network {members[0]}")
        weights = {t.name: t for t in graph.initializer}
        first_weights.append(numpy_helper.to_array(weights[chain[0].input[1]]))
        first_biases.append(numpy_helper.to_array(weights[chain[0].input[2]]))

        def own(name: str, member: str = member) -> str:
            return f"{member}/{name}" if name else name

        joined_end = chain[head - 1].output[0]
        for node in chain[head:]:
            copy = helper.make_node(node.op_type,
                                    [f"{member}/share" if x == joined_end else own(x)
                                     for x in node.input],
                                    [own(x) for x in node.output], name=own(node.name))
            copy.attribute.extend(node.attribute)
            nodes.append(copy)
        used = {x for node in chain[head:] for x in node.input}
        for name in sorted(used & weights.keys()):
            initializers.append(numpy_helper.from_array(numpy_helper.to_array(weights[name]),
                                                        own(name)))
        branch_outputs.append(own(graph.output[0].name))

    # The joined first layers: one convolution with every network's filters,
    # then the channel-wise layers as they were, then a share per network.
    first_nodes = shared[0]
    initializers += [numpy_helper.from_array(np.concatenate(first_weights), "joined/weight"),
                     numpy_helper.from_array(np.concatenate(first_biases), "joined/bias"),
                     numpy_helper.from_array(np.array([len(w) for w in first_weights], np.int64),
                                             "joined/split")]
    head_nodes, previous = [], "boxes"
    for i, node in enumerate(first_nodes):
        inputs = [previous] + (["joined/weight", "joined/bias"] if i == 0 else [])
        copy = helper.make_node(node.op_type, inputs, [f"joined/{i}"], name=f"joined/{i}")
        copy.attribute.extend(node.attribute)
        head_nodes.append(copy)
        previous = f"joined/{i}"
    head_nodes.append(helper.make_node("Split", [previous, "joined/split"],
                                       [f"{m}/share" for m in members], axis=1))
    tail = [helper.make_node("Concat", branch_outputs, ["logits"], axis=1)]
    graph = helper.make_graph(
        head_nodes + nodes + tail, f"box_classifier_{members}",
        [helper.make_tensor_value_info("boxes", TensorProto.FLOAT,
                                       ["n", INPUT_CHANNELS, INPUT_PX, INPUT_PX])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["n", len(members)])],
        initializers)
    source = onnx.load(str(network_path(members[0])))
    model = helper.make_model(graph, opset_imports=source.opset_import)
    model.ir_version = source.ir_version
    onnx.checker.check_model(model)
    partial = out.with_name(f".{out.name}.partial")
    try:
        onnx.save(model, str(partial))
        partial.replace(out)
    finally:
        partial.unlink(missing_ok=True)
    print(f"wrote {out} ({out.stat().st_size / 1024:.0f} KB)", file=sys.stderr)


def merge_all() -> None:
    """Write every group the scanner runs."""
    for members in GROUPS:
        merge(members, network_path(members))


if __name__ == "__main__":
    merge_all()
