"""records.py's @record behaves as @dataclass where pylower relies on it (repr, equality, hashing, defaults,
default factories, compare=False, __post_init__, inheritance, ClassVar-free constants, fields, replace)."""
from __future__ import annotations

import copy
import dataclasses

import pytest

from pylower.records import field, fields, record, replace


def _pair(decorate, fld, **opts):
    @decorate(**opts)
    class Point:                        # the same qualified name for both: their reprs are compared
        x: int
        y: int = 0
        tags: list = fld(default_factory=list)
        line: int = fld(default=0, compare=False)
    return Point


@pytest.fixture(params=[1, 10**9], ids=["compiled", "generic"])
def compile_after(request, monkeypatch):
    """Each test with the classes' compiled methods (from the first call) and with the generic ones."""
    from pylower import records
    monkeypatch.setattr(records, "COMPILE_AFTER", request.param)


@pytest.mark.parametrize("opts", [{}, {"slots": True}, {"frozen": True}, {"frozen": True, "slots": True},
                                  {"eq": False}])
def test_same_behaviour_as_dataclass(opts, compile_after):
    R = _pair(record, field, **opts)
    D = _pair(dataclasses.dataclass, dataclasses.field, **opts)
    r, d = R(1, 2, line=7), D(1, 2, line=7)
    assert repr(r) == repr(d)
    assert (r == R(1, 2, line=9)) == (d == D(1, 2, line=9))
    assert (r == R(1, 3)) == (d == D(1, 3))
    assert r.tags == [] and r.tags is not R(1).tags
    assert (R.__hash__ is None) == (D.__hash__ is None)
    assert hasattr(R, "__slots__") == bool(opts.get("slots"))
    assert [f.name for f in fields(R)] == [f.name for f in dataclasses.fields(D)]
    if opts.get("eq", True):
        assert copy.deepcopy(r) == r


def test_frozen_hash_is_the_tuple_hash(compile_after):
    @record(frozen=True, slots=True)
    class Reg:
        name: str
    assert hash(Reg("%r1")) == hash(("%r1",))
    assert {Reg("a"): 1}[Reg("a")] == 1


def test_post_init_inheritance_constants_replace(compile_after):
    @record(slots=True)
    class Base:
        a: str = ""
        flag = False                    # a class constant, not a field

    @record(slots=True)
    class Sub(Base):
        flag: bool = False
        n: int = 1

        def __post_init__(self):
            self.n = self.n * 2

    s = Sub("x", True, 3)
    assert (s.a, s.flag, s.n) == ("x", True, 6)
    assert Base().flag is False and [f.name for f in fields(Base)] == ["a"]
    assert [f.name for f in fields(Sub)] == ["a", "flag", "n"]
    t = replace(s, a="y")
    assert (t.a, t.flag, t.n) == ("y", True, 12)          # __post_init__ runs again, as with dataclasses
    with pytest.raises(TypeError):
        replace(s, nope=1)
    with pytest.raises(TypeError):
        Sub(1, 2, 3, 4)
