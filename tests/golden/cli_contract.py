"""The command-line contract: argument parsing and bad input (exit 2, one line naming the problem).

Usage: cli_contract.py DTYPEFLOW EXAMPLE.ir
"""
import json
import os
import subprocess
import sys

DTF, EXAMPLE = sys.argv[1], sys.argv[2]
failures = []


def run(*args):
    p = subprocess.run([DTF, *args], capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def expect(args, rc, out=None, err=None):
    got_rc, got_out, got_err = run(*args)
    shown = " ".join(a if len(a) < 60 else a[:40] + "..." for a in args)
    if got_rc != rc:
        failures.append(f"{shown}: exit {got_rc}, expected {rc}\n  stdout: {got_out[:200]}\n  stderr: {got_err[:200]}")
        return
    if out is not None and out not in got_out:
        failures.append(f"{shown}: stdout lacks {out!r}: {got_out[:200]!r}")
    if err is not None and (err not in got_err or got_err.count("\n") > 1 or len(got_err) > 400):
        failures.append(f"{shown}: stderr is not one short line with {err!r}: {got_err[:300]!r}")


# A positional list stays one argument (CLI11 used to split `[1,2]` into two).
expect(["infer-op", "--json", "aten::sum.dim_IntList", "int32:r3", "[1,2]", "True"], 0,
       out='"results":[{"dtype":"int64","rank":3}]')
expect(["infer-op", "--json", "aten::sum.dim_IntList", "int32:r3", "[]", "False"], 0,
       out='"results":[{"dtype":"int64","rank":0}]')
expect(["infer-op", "aten::cat", "[int8:r1,float16:r1]"], 0, out="float16")
expect(["result-type", "[int8:r1,float]"], 2, err="expected a tensor or a Python number")
# --input takes one NAME=TYPE; the file may follow it.
expect(["annotate", "--input", "x.1=float64:r2", EXAMPLE, "--format", "json"], 0, out='"values"')
# An input may be named by its Python name when one input alone carries it.
expect(["annotate", "--input", "x=float64:r2", EXAMPLE, "--format", "json"], 0, out='"x.1": {\n      "dtype": "float64",\n      "rank": 2')
expect(["annotate", "--input", "y=float64:r2", EXAMPLE], 2, err="--input y: no such graph input (inputs: x.1, ids.1")
# Malformed operands.
for bad in ["j", "+j", "1+j", "int8:", "float32:r999", "floot32:r1", "int8:r1:r2", ":r1"]:
    expect(["result-type", bad, "int8:r1"], 2, err="dtypeflow: ")
expect(["result-type", "1j", "int8:r1"], 0, out="complex64")
expect(["result-type", "2.5e-3j", "int8:r1"], 0, out="complex64")
# Deep nesting: refused with a short message, never a crash or a hang.
deep = "[" * 60000 + "1" + "]" * 60000
expect(["infer-op", "aten::list.t", "l=" + deep], 2, err="nested deeper")
expect(["infer-op", "aten::cat", deep], 2, err="dtypeflow: ")
expect(["result-type", deep], 2, err="nested deeper")
expect(["infer-op", "aten::sum.dim_IntList", "self=int32:r3", "dim=" + deep], 2, err="dtypeflow: ")
expect(["annotate", EXAMPLE, "--input", "x.1=" + deep], 2, err="dtypeflow: ")

# --cpu: the kind of CPU decides oneDNN's low-precision paths (src/ops/cpu_capability.h). Without it,
# the dtype with a possible error naming the CPUs; with it, exactly that CPU's outcome.
conv = ["aten::conv2d.padding", "input=float16:r4", "weight=float16:r4", "bias=float32:r1", "padding='same'"]
expect(["infer-op", "--json", *conv], 0, out='"kind":"cpu-dependent"')
expect(["infer-op", "--json", *conv], 0, out='"cpu":null')
expect(["infer-op", "--json", "--cpu", "avx512", *conv], 0, out='"possible_error":null')
expect(["infer-op", "--json", "--cpu", "avx512", *conv], 0, out='"cpu":"avx512"')
expect(["infer-op", "--cpu", "avx512_fp16", *conv], 1, out="error: aten::conv2d.padding: input type (float16) and bias type")
expect(["infer-op", "--cpu", "avx9", *conv], 2, err="--cpu avx9: not a kind of CPU")
code, out, err = run("infer-op", *conv)
if code != 0 or out.strip() != "float16" or "may raise" not in err or "avx512_fp16" not in err:
    failures.append(f"infer-op without --cpu: expected float16 and a may-raise warning naming avx512_fp16: {out!r} {err!r}")
# --autocast: the call runs inside torch.autocast (as README shows): mm casts to bfloat16, stack
# of bfloat16 and float16 raises, a context the version lacks is bad input.
mm = ["aten::mm", "self=float32:r2", "mat2=float32:r2"]
expect(["infer-op", "--autocast", "cpu:bfloat16", *mm], 0, out="bfloat16")
expect(["infer-op", *mm], 0, out="float32")
expect(["infer-op", "--autocast", "cpu:bfloat16", "aten::stack", "tensors=[bfloat16:r1, float16:r1]"], 1, out="error: ")
expect(["infer-op", "--torch", "1.13", "--autocast", "cpu:float16", *mm], 2, err="autocast takes cpu:bfloat16")
# An op whose meta kernel gives another dtype than its CPU kernel (data/meta-kernels-*.txt):
# infer-op says so (stderr note, JSON meta_kernels); an op where they agree has null.
code, out, err = run("infer-op", "--torch", "1.13", "aten::linear", "input=float32:r2", "weight=float32:r2")
if code != 0 or out.strip() != "float32" or "meta kernel (FakeTensor, torch.export) gives another dtype" not in err:
    failures.append(f"infer-op aten::linear --torch 1.13: expected float32 and a meta-kernel note: {out!r} {err!r}")
expect(["infer-op", "--json", "--torch", "1.13", "aten::linear", "input=float32:r2", "weight=float32:r2"], 0,
       out='"meta_kernels":{"another_dtype":17,"cases":5122}')
expect(["infer-op", "--json", "aten::add.Tensor", "self=float32:r1", "other=float32:r1"], 0, out='"meta_kernels":null')
# Rules for overloads new in 2.14 (issue 33): a matmul with an output dtype has no CPU kernel
# (every call raises there) but answers on the meta device; _foreach_* answer a list per element;
# the fused optimizer steps check each parameter's state dtypes.
mmd = ["aten::mm.dtype", "self=bfloat16:r2", "mat2=bfloat16:r2", "out_dtype=float32"]
expect(["infer-op", *mmd], 1, out="error: aten::mm.dtype: no CPU kernel")
expect(["infer-op", "--kernels", "meta", *mmd], 0, out="float32")
expect(["infer-op", "--torch", "1.13", *mmd], 2, err="unknown op 'aten::mm.dtype'")
expect(["infer-op", "aten::_foreach_add.Tensor", "self=[int32:r1,float16:r2]", "other=float64:r0"], 0,
       out="[float64:r1,float16:r2]")
expect(["infer-op", "aten::linspace.Tensor_Tensor", "start=int64:r0", "end=complex128:r0", "steps=4"], 0,
       out="complex64")
expect(["infer-op", "aten::_fused_sgd_", "self=[float16:r1]", "grads=[float32:r1]", "momentum_buffer_list=[]",
        "weight_decay=0.0", "momentum=0.0", "lr=0.1", "dampening=0.0", "nesterov=False", "maximize=False",
        "is_first_step=False"], 1, out="expected scalar type float16 but found float32")
code, out, _ = run("ops", "--json", "--cpu", "avx2")
if code != 0 or len(json.loads(out)) < 2000:
    failures.append("ops --json --cpu avx2: the rules are the version's whatever the CPU")

code, out, _ = run("ops", "--json")
ops = json.loads(out)
if not ops or any(set(o) != {"op", "family", "schema", "torch", "shape"} or o["torch"] != "2.14" for o in ops):
    failures.append("ops --json: not a list of {op, family, schema, torch: 2.14, shape}")
# "shape": whether the op has a shape rule, as explain reads it from the registry (sizes.shape_rule).
shape_of = {o["op"]: o["shape"] for o in ops}
if any(not isinstance(v, bool) for v in shape_of.values()):
    failures.append("ops --json: \"shape\" is not a bool")
if shape_of.get("aten::view") is not True or shape_of.get("aten::conv2d") is not True or shape_of.get("aten::item") is not False:
    failures.append("ops --json: \"shape\" of view / conv2d (shape rules) or item (none) is wrong")
code, out, _ = run("explain", "--json", os.path.join(os.path.dirname(EXAMPLE), "transformer_encoder.ir"),
                  "%9", "%key_padding_mask.1", "%query", "%head_dim", "%54", "%63")
explained = [(e["overload"], e["sizes"]["shape_rule"]) for e in json.loads(out).get("values", [])
             if "sizes" in e and e.get("overload") in shape_of] if code == 0 else []
if not explained or any(shape_of[op] != has for op, has in explained):
    failures.append(f"ops --json: \"shape\" disagrees with explain's sizes.shape_rule: {explained[:5]}")
code, out, _ = run("ops", "--json", "--torch", "1.13")
if any(o["torch"] != "1.13" for o in json.loads(out)):
    failures.append("ops --json --torch 1.13: an entry not of 1.13")
# --torch on every subcommand; an unmodelled version is refused.
expect(["result-type", "--torch", "1.13", "bfloat16:r1", "complex"], 0, out="complex64")
expect(["result-type", "--torch", "2.14", "bfloat16:r1", "complex"], 0, out="bcomplex32")
expect(["result-type", "bfloat16:r1", "complex"], 0, out="bcomplex32")  # the default is the newest
expect(["result-type", "--torch", "2.14", "uint16:r1", "int8:r1"], 1, out="error: Promotion for uint16")
expect(["result-type", "--torch", "1.13", "uint16:r1", "int8:r1"], 2, err="unknown dtype 'uint16' in PyTorch 1.13")
expect(["promote-types", "--torch", "2.14", "float8_e4m3fn", "float32"], 1, out="error: Promotion for Float8")
expect(["result-type", "--torch", "3.0", "int8:r1"], 2, err="--torch 3.0: not a modelled PyTorch version")
expect(["infer-op", "--torch", "1.13", "aten::rms_norm", "input=float32:r2", "normalized_shape=[2]"], 2,
       err="PyTorch 2.6 has it")
expect(["infer-op", "--json", "--torch", "1.13", "aten::add.Tensor", "int8:r1", "float64:r0"], 0, out='"torch":"1.13"')
expect(["annotate", "--torch", "1.13", EXAMPLE, "--format", "json"], 0, out='"torch": "1.13"')
expect(["--version"], 0, out="PyTorch semantics: 1.13, 2.6, 2.14")

# --- issue 27: answers a user can act on, input that cannot hurt -----------------------
import os
import pty
import tempfile

EXAMPLES = os.path.dirname(os.path.abspath(EXAMPLE))
tmp = tempfile.mkdtemp(prefix="dtypeflow-cli-")


def write(name, data):
    path = os.path.join(tmp, name)
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())
    return path


def run_bytes(args, stdin=None, stdout=subprocess.PIPE):
    p = subprocess.run([DTF, *args], input=stdin, stdout=stdout, stderr=subprocess.PIPE, timeout=120)
    return p.returncode, p.stdout or b"", p.stderr


# Integers beyond int64 raise as PyTorch raises them; 1e309 is inf, as Python reads it.
expect(["result-type", "int8:r1", "99999999999999999999999"], 1, out="Overflow when unpacking long")
expect(["infer-op", "aten::zeros", "size=[99999999999999999999]"], 1,
       out="must be tuple of ints, but found element of type int at pos 1")
expect(["result-type", "int8:r1", "1e309"], 0, out="float32")
# Raises PyTorch 1.13 makes, found by a differential run against libtorch.
expect(["infer-op", "--torch", "1.13", "aten::narrow.Tensor", "self=int32:r1", "dim=0", "start=bfloat16:r0", "length=1"], 1,
       out="start must be an 0-dim integral Tensor")
expect(["infer-op", "--torch", "1.13", "aten::rrelu_with_noise_backward", "grad_output=int16:r0", "self=uint8:r0",
        "noise=complex64:r2", "lower=1j", "upper=0.5+0.5j", "training=False", "self_is_result=False"], 1,
       out="cannot be converted")
# A complex where 1.13 has an int? (var's correction) raises when binding, as PyTorch's parser does;
# 2.14's Scalar correction raises for an imaginary part only.
expect(["infer-op", "--torch", "1.13", "aten::var.correction", "self=float32:r2", "dim=None", "correction=1j"], 1,
       out="argument 'correction' must be int, not complex")
expect(["infer-op", "--torch", "2.14", "aten::var.correction", "self=float32:r2", "correction=1j"], 1,
       out="without overflow")
expect(["infer-op", "--torch", "2.14", "aten::var.correction", "self=float32:r2", "correction=1+0j"], 0, out="float32")
# A CPU kernel gap is a possible error of its own kind, with the gap in words; the dtype stands.
code, out, _ = run("infer-op", "--json", "--torch", "2.14", "aten::aminmax", "self=complex64:r0")
gap = json.loads(out)["possible_error"] if code == 0 else None
if not gap or gap.get("kind") != "missing-kernel" or gap.get("gap") != "no CPU kernel for complex64 in 2.14":
    failures.append(f"aminmax complex64 kernel gap: exit {code}, {out[:300]!r}")
# Exit codes: 3 is an internal error, and documented.
code, out, _ = run("--help")
if "3 internal error" not in out:
    failures.append("--help does not document exit code 3")
# Messages: a directory, a missing file, control bytes, unknown types, huge ints.
expect(["annotate", tmp], 2, err="is a directory")
expect(["annotate", os.path.join(tmp, "missing.ir")], 2, err="No such file or directory")
garbage = write("garbage.ir", b"\x1b[31mgarbage\x07\n")
code, _, err = run_bytes(["annotate", garbage])
if code != 2 or b"\x1b" in err or b"\\x1b" not in err:
    failures.append(f"garbage input: exit {code}, stderr {err!r} (raw control bytes, or no escape)")
expect(["annotate", write("frob.ir", "graph(%x : Frobnicator):\n  return (%x)\n")], 2,
       err="unknown type 'Frobnicator'")
expect(["annotate", write("big_int.ir", "graph(%x : Tensor):\n  %c : int = prim::Constant[value=100000000000000000000000000000000]()\n  return (%c)\n")],
       2, err="does not fit int64")
# Writes that fail are errors.
code, _, err = run_bytes(["annotate", EXAMPLE, "-o", "/dev/full"])
if code != 2 or b"No space left" not in err:
    failures.append(f"annotate -o /dev/full: exit {code}, stderr {err!r}")
with open("/dev/full", "wb") as full:
    code, _, err = run_bytes(["result-type", "int8:r1", "float"], stdout=full)
if code != 2 or b"No space left" not in err:
    failures.append(f"result-type > /dev/full: exit {code}, stderr {err!r}")
# JSON holds only UTF-8: names of another encoding become U+FFFD, never an internal error.
latin1 = write("latin1.ir", b"graph(%x\xe9 : Float(2)):\n  %y : Tensor = aten::relu(%x\xe9)\n  return (%y)\n")
code, out, err = run_bytes(["annotate", latin1, "--format", "json"])
if code != 0 or "x\ufffd" not in json.loads(out)["values"]:
    failures.append(f"annotate --format json of a Latin-1 name: exit {code}, stderr {err!r}")
# A dtype known without its rank, and the --input types, in the annotated IR.
code, out, _ = run("annotate", "--torch", "1.13", EXAMPLE, "--input", "x.1=float32:r2")
if "graph(%x.1 : Float(*, *)," not in out or "dtypeflow: %t is Float, rank unknown" not in out:
    failures.append("annotate: --input type not in the header, or a dtype without rank not said")
# The reader is chosen by content: a saved module's zip named .ir goes to the module
# reader (its own reason), never to the IR parser ("found 'PK'").
import zipfile
mod = os.path.join(tmp, "module_named.ir")
with zipfile.ZipFile(mod, "w") as z:
    z.writestr("m/data.pkl", b"not a pickle")
    z.writestr("m/version", b"3\n")
code, _, err = run_bytes(["annotate", mod])
if code != 2 or b"TorchScript module" not in err or b"PK" in err:
    failures.append(f"a module zip named .ir: exit {code}, stderr {err[:200]!r}")
# ops --family with an op name: refused with a hint.
expect(["ops", "--family", "aten::add"], 2, err="use --op aten::add")
expect(["ops", "--op", "aten::add.Tensor"], 0, out="aten::add.Tensor")
# check: JSON and -o.
code, out, _ = run("check", "--torch", "1.13", os.path.join(EXAMPLES, "mixed_dtypes.ir"), "--format", "json")
if code != 0 or set(json.loads(out)["counts"]) != {"correct", "unknown", "wrong"}:
    failures.append(f"check --format json: exit {code}")
check_out = os.path.join(tmp, "check.txt")
expect(["check", "--torch", "1.13", os.path.join(EXAMPLES, "token_embedding.ir"), "-o", check_out], 0)
if not os.path.exists(check_out) or "0 wrong" not in open(check_out).read():
    failures.append("check -o: nothing written")
# stdin and several files in one run.
with open(os.path.join(EXAMPLES, "token_embedding.ir"), "rb") as f:
    code, out, _ = run_bytes(["annotate", "--torch", "1.13", "-", "--format", "json"], stdin=f.read())
if code != 0 or not json.loads(out)["values"]:
    failures.append(f"annotate - (stdin): exit {code}")
code, out, _ = run("annotate", "--torch", "1.13", os.path.join(EXAMPLES, "token_embedding.ir"),
                   os.path.join(EXAMPLES, "mixed_dtypes.ir"), "--format", "json")
files = json.loads(out).get("files", []) if code == 0 else []
if [os.path.basename(f["file"]) for f in files] != ["token_embedding.ir", "mixed_dtypes.ir"]:
    failures.append(f"annotate of two files: exit {code}, {[f.get('file') for f in files]}")
code, out, _ = run("annotate", "--torch", "1.13", os.path.join(EXAMPLES, "token_embedding.ir"), os.path.join(tmp, "missing.ir"))
if code != 2 or "# " not in out:
    failures.append(f"annotate of a good and a missing file: exit {code} (want 2, the good one annotated)")
# Limits: a file over the size limit is refused before it is read.
huge = os.path.join(tmp, "huge.ir")
with open(huge, "wb") as f:
    f.truncate(513 << 20)  # sparse: no disk used
expect(["annotate", huge], 2, err="larger than 512 MiB")
os.remove(huge)
# Progress on a terminal (shown after DTYPEFLOW_PROGRESS_AFTER_MS; 1 s by default).
chain = "graph(%x : Float(2)):\n" + "".join(f"  %v{i} : Tensor = aten::relu(%{'x' if i == 0 else f'v{i-1}'})\n"
                                            for i in range(60000)) + "  return (%v59999)\n"
chain_file = write("chain.ir", chain)
pid, fd = pty.fork()
if pid == 0:
    os.environ["DTYPEFLOW_PROGRESS_AFTER_MS"] = "0"
    os.execv(DTF, [DTF, "annotate", chain_file, "-o", os.devnull])
shown = b""
while True:
    try:
        chunk = os.read(fd, 4096)
    except OSError:
        break
    if not chunk:
        break
    shown += chunk
os.waitpid(pid, 0)
# Which phase a progress line catches (reading, or refining N nodes) depends on timing.
if b"dtypeflow: " + chain_file.encode() not in shown or not (b"nodes" in shown or b"reading" in shown):
    failures.append(f"no progress line on a terminal: {shown[:300]!r}")

for f in failures:
    print("FAIL:", f)
print(f"{len(failures)} failures")
sys.exit(1 if failures else 0)
