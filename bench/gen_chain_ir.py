#!/usr/bin/python3
"""Write a chain of N add/mul/relu nodes as TorchScript IR text (docs/performance.md, the whole CLI at 10^6 nodes).

    bench/gen_chain_ir.py N OUT.ir      # then: dtypeflow annotate OUT.ir -o /dev/null

The input is Float(8, 16), so every value gets sizes; each node's result is written `Tensor`
(what a trace's reader would not know), one node per line, as the benchmark's synthetic chain.
"""
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    n, out = int(sys.argv[1]), sys.argv[2]
    with open(out, "w") as f:
        f.write("graph(%x : Float(8, 16, strides=[16, 1], requires_grad=0, device=cpu)):\n")
        f.write("  %one : int = prim::Constant[value=1]()\n  %half : float = prim::Constant[value=0.5]()\n")
        prev = "x"
        for i in range(n - 2):
            op = i % 3
            if op == 0:
                f.write(f"  %v{i} : Tensor = aten::add(%{prev}, %{prev}, %one)\n")
            elif op == 1:
                f.write(f"  %v{i} : Tensor = aten::mul(%{prev}, %half)\n")
            else:
                f.write(f"  %v{i} : Tensor = aten::relu(%{prev})\n")
            prev = f"v{i}"
        f.write(f"  return (%{prev})\n")


if __name__ == "__main__":
    main()
