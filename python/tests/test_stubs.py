# SPDX-License-Identifier: BSD-3-Clause
"""The type stub of the extension names what the extension has, and the public
names of the package exist."""

import ast
import pathlib

import mgblas
from mgblas import _mgblas


def test_extension_stub_matches_module():
    stub = pathlib.Path(mgblas.__file__).with_name("_mgblas.pyi")
    assert stub.exists(), "the stub is installed beside the extension"
    tree = ast.parse(stub.read_text())
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
    public = {n for n in dir(_mgblas) if not n.startswith("_")} | {"__version__"}
    assert public == names, f"stub differs: missing {public - names}, extra {names - public}"
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    for cname, node in classes.items():
        members = {m.name for m in node.body if isinstance(m, ast.FunctionDef)}
        actual = {n for n in dir(getattr(_mgblas, cname)) if not n.startswith("_")}
        assert actual == members, f"{cname}: missing {actual - members}, extra {members - actual}"


def test_public_names():
    for name in mgblas.__all__:
        assert hasattr(mgblas, name), name
    assert (pathlib.Path(mgblas.__file__).parent / "py.typed").exists()
