"""Runs every reference implementation on its program's `# ARGS:` line and
compares what it prints with the program's expected output.

    python3 tests/data/large_reference/check.py [NAME...]

The references are written independently of the Bril programs, in plain
Python; the `.out` files next to the programs were checked against them."""

import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
PROGRAMS = HERE.parents[2] / "src" / "bril" / "suite" / "large"


def arguments(source):
    for line in source.read_text().splitlines():
        if line.startswith("# ARGS:"):
            return line[len("# ARGS:"):].split()
    return []


def main(names):
    names = names or sorted(p.stem for p in PROGRAMS.glob("*.bril"))
    failed = []
    for name in names:
        reference = HERE / f"{name}.py"
        if not reference.exists():
            failed.append(name)
            print(f"{name}: no reference implementation")
            continue
        args = arguments(PROGRAMS / f"{name}.bril")
        run = subprocess.run([sys.executable, str(reference), *args], capture_output=True, text=True)
        expected = (PROGRAMS / f"{name}.out").read_text()
        if run.returncode != 0 or run.stdout != expected:
            failed.append(name)
            print(f"{name}: differs\n{run.stderr}")
        else:
            print(f"{name}: ok")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
