"""Record classes: pylower's light stand-in for `@dataclass`, for start-up speed.

`dataclasses` builds every class's `__init__`, `__repr__`, `__eq__`, `__hash__` (and, frozen, `__setattr__` /
`__delattr__`) by compiling generated source at import time, and imports `inspect` to make a docstring:
about half of pylower's import time on a one-instruction input (issue 13). A `@record` class declares its
fields exactly as a dataclass does (annotations, defaults, `field(default=..., default_factory=...,
compare=False, metadata=...)`, `ClassVar` annotations are not fields, `__post_init__` runs after `__init__`,
fields are inherited from record bases) and behaves the same where pylower relies on it:

- `__init__(self, <fields in order>)` with the defaults; `__init__`, `__eq__` and `__hash__` are compiled for
  the class once it has called them often enough (a generic method reading the fields runs until then: see
  `_lazy`), so a class a run builds a few times costs no compile;
- `__repr__` as a dataclass's (`Name(a=1, b='x')`);
- `eq=True` (default): `__eq__` compares the tuples of compared fields when both are the same class;
  `__hash__` is the hash of that tuple when `frozen=True`, and `None` (unhashable) otherwise, as a dataclass;
- `slots=True` gives the class `__slots__`;
- `frozen=True` declares intent (the record is a value: hashable, never changed after construction); the
  assignment guard of a frozen dataclass is not installed (it made every construction go through
  `object.__setattr__`).

`fields(cls_or_record)` and `replace(record, **changes)` are the dataclasses functions of the same names.
"""
from __future__ import annotations

__all__ = ["record", "field", "fields", "replace", "Field", "MISSING"]


class _Missing:
    __slots__ = ()

    def __repr__(self):
        return "MISSING"


MISSING = _Missing()
_EMPTY: dict = {}


class Field:
    __slots__ = ("name", "type", "default", "default_factory", "compare", "metadata")

    def __init__(self, default=MISSING, default_factory=MISSING, compare=True, metadata=None):
        self.name = None
        self.type = None
        self.default = default
        self.default_factory = default_factory
        self.compare = compare
        self.metadata = _EMPTY if metadata is None else metadata

    def __repr__(self):
        return f"Field(name={self.name!r}, type={self.type!r}, default={self.default!r})"


def field(*, default=MISSING, default_factory=MISSING, compare=True, metadata=None) -> Field:
    return Field(default, default_factory, compare, metadata)


def _is_classvar(ann) -> bool:
    if isinstance(ann, str):
        return ann.startswith(("ClassVar", "typing.ClassVar"))
    return getattr(ann, "__origin__", None) is not None and repr(ann).startswith("typing.ClassVar")


def fields(cls_or_record) -> tuple:
    cls = cls_or_record if isinstance(cls_or_record, type) else type(cls_or_record)
    return tuple(cls.__record_fields__.values())


def replace(obj, **changes):
    """A copy of `obj` with some fields changed (a name that is no field is a TypeError, as dataclasses')."""
    kw = {n: getattr(obj, n) for n in type(obj).__record_fields__ if n not in changes}
    return type(obj)(**kw, **changes)


def _repr(self):
    return f"{self.__class__.__qualname__}(" + ", ".join(
        f"{n}={getattr(self, n)!r}" for n in self.__record_fields__) + ")"


def _method_source(cls, name: str) -> str:
    """The source of `name` (__init__, __eq__ or __hash__) for the class's fields, as a dataclass writes it."""
    fs = cls.__record_fields__
    if name == "__init__":
        params, body = [], []
        for n, f in fs.items():
            if f.default_factory is not MISSING:
                params.append(f"{n}=MISSING")
                body.append(f"  self.{n} = _f_{n}() if {n} is MISSING else {n}")
            else:
                params.append(f"{n}=_d_{n}" if f.default is not MISSING else n)
                body.append(f"  self.{n} = {n}")
        if hasattr(cls, "__post_init__"):
            body.append("  self.__post_init__()")
        return "\n".join([f"def __init__(self, {', '.join(params)}):", *(body or ["  pass"])])
    key = "".join(f"self.{n}," for n, f in fs.items() if f.compare)
    if name == "__eq__":
        other = "".join(f"other.{n}," for n, f in fs.items() if f.compare)
        return "\n".join(["def __eq__(self, other):", "  if other.__class__ is self.__class__:",
                          f"    return ({key}) == ({other})", "  return NotImplemented"])
    return f"def __hash__(self):\n  return hash(({key}))"


def _compile_method(cls, name: str) -> None:
    """Compile one method of the class, from the source a dataclass would write, and install it. (`exec` of
    the text, not of `compile(...)`: the compile() builtin's first call sets up the interpreter's AST types,
    about 9M executed instructions, more than all the compiles of a short run together.)"""
    env = {"MISSING": MISSING}
    for n, f in cls.__record_fields__.items():
        env[f"_f_{n}"], env[f"_d_{n}"] = f.default_factory, f.default
    exec(_method_source(cls, name) + "\n", env)
    fn = env[name]
    fn.__qualname__ = f"{cls.__qualname__}.{name}"
    setattr(cls, name, fn)


def _generic_method(cls, name: str):
    """The method as one function for every class (the fields read from `__record_fields__`): what a class
    runs before its own method is compiled."""
    fs = tuple(cls.__record_fields__.values())
    if name == "__init__":
        post_init = hasattr(cls, "__post_init__")

        def __init__(self, *args, **kwargs):
            if len(args) > len(fs):
                raise TypeError(f"{cls.__qualname__}() takes {len(fs)} arguments, {len(args)} given")
            for f, v in zip(fs, args):
                setattr(self, f.name, v)
            for f in fs[len(args):]:
                v = kwargs.pop(f.name, MISSING)
                if v is MISSING:
                    if f.default_factory is not MISSING:
                        v = f.default_factory()
                    elif f.default is not MISSING:
                        v = f.default
                    else:
                        raise TypeError(f"{cls.__qualname__}() missing argument '{f.name}'")
                setattr(self, f.name, v)
            if kwargs:
                raise TypeError(f"{cls.__qualname__}() got an unexpected keyword argument '{next(iter(kwargs))}'")
            if post_init:
                self.__post_init__()
        return __init__
    key = tuple(f.name for f in fs if f.compare)
    if name == "__eq__":
        def __eq__(self, other):
            if other.__class__ is self.__class__:
                return tuple(getattr(self, n) for n in key) == tuple(getattr(other, n) for n in key)
            return NotImplemented
        return __eq__

    def __hash__(self):
        return hash(tuple(getattr(self, n) for n in key))
    return __hash__


# A class's own method is compiled on its COMPILE_AFTER-th call, once the generic one has cost about as much
# as compiling (a rent-or-buy rule): the generic method takes about 1.4 us more per call than a compiled one, a
# compile about 0.07 ms. A one-instruction run compiles two classes (issue 13: start-up), a long one compiles
# the classes it uses often after a few calls.
COMPILE_AFTER = 48


def _lazy(cls, name: str):
    generic = _generic_method(cls, name)
    calls = 0

    def method(self, *args, **kwargs):
        nonlocal calls
        calls += 1
        if calls < COMPILE_AFTER:
            return generic(self, *args, **kwargs)
        if cls.__dict__[name] is method:
            _compile_method(cls, name)
        return getattr(cls, name)(self, *args, **kwargs)
    method.__name__ = name
    return method


def _process(cls, frozen: bool, slots: bool, eq: bool):
    fs: dict[str, Field] = {}
    for base in reversed(cls.__mro__[1:]):       # inherited fields first, in their order
        fs.update(base.__dict__.get("__record_fields__", _EMPTY))
    own = []
    for n, ann in cls.__dict__.get("__annotations__", _EMPTY).items():
        if _is_classvar(ann):
            continue
        v = cls.__dict__.get(n, MISSING)
        f = v if isinstance(v, Field) else Field(default=v)
        f.name, f.type = n, ann
        fs[n] = f
        own.append(n)
    d = dict(cls.__dict__)
    for n in own:
        f = fs[n]
        if slots or isinstance(d.get(n), Field) and f.default is MISSING:
            d.pop(n, None)
        elif f.default is not MISSING:
            d[n] = f.default                   # a plain class keeps the default as a class attribute
    if slots:
        inherited = set()
        for base in cls.__mro__[1:]:
            inherited.update(base.__dict__.get("__slots__", ()))
        d["__slots__"] = tuple(n for n in own if n not in inherited)
        d.pop("__dict__", None)
        d.pop("__weakref__", None)
    d["__record_fields__"] = fs
    if "__repr__" not in d:
        d["__repr__"] = _repr
    lazy = [] if "__init__" in d else ["__init__"]
    if eq:
        if "__eq__" not in d:
            lazy.append("__eq__")
        if d.get("__hash__") is None:
            if frozen:
                lazy.append("__hash__")
            else:
                d["__hash__"] = None
    new = type(cls)(cls.__name__, cls.__bases__, d) if slots else cls
    if not slots:
        for k, v in d.items():
            if k not in ("__dict__", "__weakref__") and cls.__dict__.get(k, MISSING) is not v:
                setattr(cls, k, v)
        for n in own:
            if n not in d and n in cls.__dict__:
                delattr(cls, n)
    new.__qualname__ = cls.__qualname__
    for name in lazy:
        setattr(new, name, _lazy(new, name))
    return new


def record(cls=None, /, *, frozen: bool = False, slots: bool = False, eq: bool = True):
    """`@record`, `@record(frozen=True, slots=True)`, ...: see the module's docstring."""
    def wrap(c):
        return _process(c, frozen, slots, eq)
    return wrap if cls is None else wrap(cls)
