#!/usr/bin/env python3
"""Exports real networks to ONNX for bench/onnx.sh: torchvision models with
random weights and a torch.nn.TransformerEncoder, each at the batch sizes
given, with torch.onnx.export (static shapes, opset 13).

    /usr/bin/python3 bench/onnx_export.py --out DIR [--batch 1,32] [--models a,b]

Writes DIR/MODEL-bBATCH.onnx and skips a file that exists. Exit 0 with a
message on stderr when torch or torchvision is missing (Debian:
python3-torch, python3-torchvision); exit 1 when an export fails.
"""

import argparse
import os
import sys
import time

MODELS = [
    "resnet18",
    "resnet50",
    "mobilenet_v3_large",
    "efficientnet_b0",
    "convnext_tiny",
    "regnet_y_400mf",
    "inception_v3",
    "vit_b_16",
    "swin_t",
    "transformer_encoder",
]


def build(name, torch, torchvision):
    """The module in eval mode and the shape of its input at batch 1."""
    if name == "transformer_encoder":
        layer = torch.nn.TransformerEncoderLayer(d_model=512, nhead=8, dim_feedforward=2048, batch_first=True)
        return torch.nn.TransformerEncoder(layer, num_layers=6).eval(), (1, 128, 512)
    kwargs = {"weights": None}
    if name == "inception_v3":
        kwargs.update(aux_logits=False, init_weights=True)
    model = getattr(torchvision.models, name)(**kwargs).eval()
    size = 299 if name == "inception_v3" else 224
    return model, (1, 3, size, size)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--batch", default="1,32")
    parser.add_argument("--models", default=",".join(MODELS))
    args = parser.parse_args()
    try:
        import torch
        import torchvision
    except ImportError as e:
        print(f"onnx_export.py: skipped, {e.name} is missing (Debian: apt-get install python3-torch python3-torchvision)",
              file=sys.stderr)
        return 0
    os.makedirs(args.out, exist_ok=True)
    torch.set_num_threads(1)
    failed = 0
    for name in args.models.split(","):
        for batch in (int(b) for b in args.batch.split(",")):
            path = os.path.join(args.out, f"{name}-b{batch}.onnx")
            if os.path.exists(path):
                continue
            torch.manual_seed(0)
            model, shape = build(name, torch, torchvision)
            x = torch.randn((batch,) + shape[1:])
            start = time.monotonic()
            tmp = path + ".tmp"
            # With gradients on: torch's fast path of multi-head attention,
            # taken under no_grad, has no ONNX export.
            try:
                torch.onnx.export(model, (x,), tmp, opset_version=13, input_names=["input"], output_names=["output"])
            except Exception as e:  # noqa: BLE001 - any failure of one export is reported, the others go on
                print(f"onnx_export.py: {name} at batch {batch} failed: {e}", file=sys.stderr)
                failed += 1
                continue
            os.replace(tmp, path)
            print(f"onnx_export.py: {path} in {time.monotonic() - start:.1f} s", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
