"""PTX parser: the whole module grammar as nvcc 13, LLVM's NVPTX backend and Triton emit it.

Recursive descent over lowering.lexer tokens. Instructions are parsed generically (stem + modifiers +
operands); which instructions exist is checked against lowering.ptx_opcodes, as ptxas does
("Not a name of any known instruction"). Errors use ptxas's wording: "Parsing error near 'X': syntax error".
"""
from __future__ import annotations

import math
from pylower.lazy_re import lazy_compile

from . import ptx_ast as A
from .diagnostics import PtxError
from .lexer import TOKEN_RE, Lexer
from .ptx_opcodes import KNOWN_OPCODES

STATE_SPACES = {".reg", ".sreg", ".const", ".global", ".local", ".param", ".shared", ".tex", ".surf", ".sampler"}
LINKAGE = {".visible", ".extern", ".weak", ".common"}
PERF_DIRECTIVES = {".maxntid", ".reqntid", ".minnctapersm", ".maxnctapersm", ".maxnreg", ".explicitcluster",
                   ".reqnctapercluster", ".maxclusterrank", ".noreturn", ".pragma", ".abi_preserve",
                   ".abi_preserve_control", ".blocksareclusters"}
LINE_DIRECTIVES = {".loc", ".file"}          # end at the end of the line (no ';')
# Other directives pylower keeps as text; anything else is a syntax error, as in ptxas.
KNOWN_DIRECTIVES = LINE_DIRECTIVES | {".pragma", ".section", ".branchtargets", ".calltargets", ".callprototype",
                                      ".alias", ".maxnreg", ".maxntid", ".reqntid", ".minnctapersm", ".noreturn"}


# Fast path for the common statement shape (one instruction, no braces/strings/comments inside): one
# regex for the whole statement and a cached operand classifier. Anything else takes the token path,
# which yields the same AST (tests check the round trip over the whole corpus).
# white space and whole-line `//` comments before a statement (each way of matching them is the only one: no
# backtracking blow-up on a statement the fast path leaves to the token path); the operands start at their
# first non-blank character, so a long run of blanks is matched one way only too
_FAST_SPACE = r"(?:[ \t\r\n]|//[^\n]*\n)*"
_FAST_INSTR = lazy_compile(_FAST_SPACE + r"(?:@(!?)(%[\w$]+)[ \t]+)?([a-z][\w$]*(?:(?:\.|::)[\w$]+)*)"
                            r"(?:[ \t]+([^;\"/\n \t][^;\"/\n]*)?)?;")
# a `.loc file line column` line (Triton and LLVM put one before most instructions)
# (`, function_name NAME[, inlined_at F L C]` after it: Triton's inlined code); the numbers as the lexer reads
# them ("09" is two tokens there, so no fast path)
_LOC_NUM = r"(0|[1-9]\d*)"
_FAST_LOC = lazy_compile(_FAST_SPACE + r"(\.loc)[ \t]+" + _LOC_NUM + r"[ \t]+" + _LOC_NUM + r"[ \t]+" + _LOC_NUM +
                          r"(?:[ \t]*,[ \t]*function_name[ \t]+([A-Za-z_$][\w$]*)(?:[ \t]*,[ \t]*inlined_at[ \t]+" +
                          _LOC_NUM + r"[ \t]+" + _LOC_NUM + r"[ \t]+" + _LOC_NUM + r")?)?[ \t]*(?://[^\n]*)?(?=\r?\n)")
# a `.section NAME { ... }` body with no string, comment or nested brace (DWARF byte lists): read with the
# lexer's own regex in one loop instead of token by token
_FAST_SECTION = lazy_compile(r"[ \t\r\n]*(\.[A-Za-z_$][\w$]*)[ \t\r\n]*\{[^{}\"/]*\}")
_FAST_LABEL = lazy_compile(r"[ \t\r\n]*([A-Za-z_$][\w$]*):(?!:)")
_REGNAME = lazy_compile(r"%[\w$]+(?:\.[\w$]+)?")
_IDENT = lazy_compile(r"[A-Za-z_$][\w$]*")
_NUMBER = lazy_compile(r"0[fF][0-9a-fA-F]{8}|0[dD][0-9a-fA-F]{16}|0[xX][0-9a-fA-F]+[Uu]?|0[bB][01]+[Uu]?"
                        r"|\d+\.\d*(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+|(?:0[0-7]*|[1-9]\d*)[Uu]?")
_ADDR = lazy_compile(r"\[\s*(%[\w$]+|[A-Za-z_$][\w$]*|\d+|0[xX][0-9a-fA-F]+)\s*(?:([+-])\s*(-?(?:0[xX][0-9a-fA-F]+|[1-9]\d*|0))\s*)?\]")
_OPERAND_CACHE: dict[str, object] = {}


def _no_match(text: str, pos: int) -> None:
    return None


def _plain_decimal(s: str) -> bool:
    """ASCII digits without a leading 0 (or "0"): an integer both _NUMBER and _INT_LITERAL match whole."""
    return s.isascii() and s.isdigit() and (s[0] != "0" or s == "0")


def _is_number(s: str) -> bool:
    """_NUMBER.fullmatch(s), without compiling it for the plain decimals most inputs have only."""
    return _plain_decimal(s) or _NUMBER.fullmatch(s) is not None


def _is_int_literal(s: str) -> bool:
    """_INT_LITERAL.fullmatch(s), without compiling it for the plain decimals most inputs have only."""
    return _plain_decimal(s) or _INT_LITERAL.fullmatch(s) is not None


# An integer constant where the grammar wants one (.address_size, %r<N>, [N], .align N): hex, binary, octal or
# decimal with an optional U; a float there is a syntax error and a value above the field's range "Constant
# overflow", as in ptxas.
_INT_LITERAL = lazy_compile(r"(?:0[xX][0-9a-fA-F]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)[Uu]?")
U32_MAX, U64_MAX = (1 << 32) - 1, (1 << 64) - 1
# ptxas's parser stack holds 1663 nested `{ }` scopes inside a function body; one more is "Parsing error near
# ...: memory exhausted" (probe: tests/test_robustness.py)
MAX_SCOPE_DEPTH = 1663


def _in_range(num: str) -> bool:
    """Is a literal representable (ptxas: a decimal above 64 bits or a float beyond double is "Constant
    overflow"; hexadecimal is truncated)?"""
    if num[:2] in ("0x", "0X", "0f", "0F", "0d", "0D", "0b", "0B"):
        return True
    v = A.parse_number(num)
    return v <= U64_MAX if isinstance(v, int) else math.isfinite(v)
_CACHE_LIMIT = 1 << 16          # entries; emptied when full (a long-running process stays bounded)


def _fast_operand(s: str):
    o = _OPERAND_CACHE.get(s)
    if o is not None:
        return o
    c = s[0]
    if c == "%":
        if _REGNAME.fullmatch(s):
            o = A.Reg(s)
        elif s.count("|") == 1:
            a, b = s.split("|", 1)
            a, b = _fast_operand(a.strip()), _fast_operand(b.strip()) if b.strip() else None
            if a is not None and b is not None and type(b) is not A.Pair:
                o = A.Pair(a, b)
    elif c == "[":
        m = _ADDR.fullmatch(s)
        if m:
            base = m.group(1)
            bo = A.Reg(base) if base[0] == "%" else (A.Imm(base) if base[0].isdigit() else A.Sym(base))
            off = 0
            if m.group(2):
                off = int(A.parse_number(m.group(3)))
                if m.group(2) == "-":
                    off = -off
            o = A.Addr((bo,), off)
    elif c.isdigit():
        if _is_number(s) and _in_range(s):
            o = A.Imm(s)
    elif c == "-":
        if _is_number(s[1:]) and _in_range(s[1:]):
            o = A.Imm(s)
    elif c == "!":
        inner = s[1:].strip()
        if _REGNAME.fullmatch(inner):
            o = A.Not(A.Reg(inner))
    elif s == "_":
        o = A.Sink()
    elif _IDENT.fullmatch(s):
        o = A.Sym(s)
    if o is not None:
        if len(_OPERAND_CACHE) >= _CACHE_LIMIT:
            _OPERAND_CACHE.clear()
        _OPERAND_CACHE[s] = o
    return o


def _loc_text(m) -> str:
    """The text the token path gives a `.loc` line matched by _FAST_LOC (its tokens joined by blanks)."""
    text = f"{m.group(2)} {m.group(3)} {m.group(4)}"
    if m.group(5):
        text += f" , function_name {m.group(5)}"
        if m.group(6):
            text += f" , inlined_at {m.group(6)} {m.group(7)} {m.group(8)}"
    return text


def _fast_operands(ops: str):
    """The operands of a simple statement's operand text, or None when one is not of a simple shape (the token
    path then parses and diagnoses it). A brace list of simple operands (`{%r1, %r2}`) is a Vec."""
    if "{" not in ops and "}" not in ops:
        pieces = ops.split(",")
    else:
        pieces, depth, start = [], 0, 0
        for i, ch in enumerate(ops):
            if ch == "{":
                depth += 1
                if depth > 1:
                    return None
            elif ch == "}":
                depth -= 1
                if depth < 0:
                    return None
            elif ch == "," and depth == 0:
                pieces.append(ops[start:i])
                start = i + 1
        if depth:
            return None
        pieces.append(ops[start:])
    operands = []
    for piece in pieces:
        piece = piece.strip()
        if not piece:
            return None
        if piece[0] == "{":
            if piece[-1] != "}":
                return None
            items = []
            for item in piece[1:-1].split(","):
                item = item.strip()
                o = _fast_operand(item) if item and "}" not in item else None
                if o is None:
                    return None
                items.append(o)
            operands.append(A.Vec(tuple(items)))
            continue
        if "}" in piece:
            return None
        o = _fast_operand(piece)
        if o is None:
            return None
        operands.append(o)
    return tuple(operands)


class Parser:
    known_opcodes = KNOWN_OPCODES      # the Ori IR reader widens this with the pseudo-ops (ori.PSEUDO_OPCODES)

    def __init__(self, text: str, file: str = "<input>"):
        self.lx = Lexer(text, file)
        self.file = file
        self._names: dict[str, tuple] = {}            # "ld.global.u32" -> ("ld", (".global", ".u32"))
        self._operand_lists: dict[str, tuple] = {}    # operand text -> operands (per parse)
        self._has_loc = ".loc" in text                 # else _FAST_LOC is never compiled

    # -- token helpers
    def peek(self, k=0):
        return self.lx.peek(k)

    def next(self):
        return self.lx.next()

    def error_at(self, tok, message=None) -> PtxError:
        near = tok[1] if tok[0] != "EOF" else "<EOF>"
        return self.lx.error(message or f"Parsing error near '{near}': syntax error", tok[2])

    def expect(self, kind: str, text: str | None = None):
        tok = self.next()
        if tok[0] != kind or (text is not None and tok[1] != text):
            raise self.error_at(tok)
        return tok

    def accept(self, kind: str, text: str | None = None):
        tok = self.peek()
        if tok[0] == kind and (text is None or tok[1] == text):
            return self.next()
        return None

    def line_of(self, tok) -> int:
        return self.lx.linecol(tok[2])[0]

    def int_const(self, limit: int = U64_MAX) -> int:
        """The next token as an integer constant (ptxas: a float is a syntax error, a value above the field's
        range is "Constant overflow")."""
        tok = self.next()
        if tok[0] != "NUM" or not _is_int_literal(tok[1]):
            raise self.error_at(tok)
        v = int(A.parse_number(tok[1]))
        if v > limit:
            raise self.lx.error("Constant overflow", tok[2])
        return v

    def align_attr(self) -> str:
        """The N of `.align N` (a power of two, ptxas's check), as the attribute `.align N` in decimal."""
        tok = self.peek()
        n = self.int_const(U32_MAX)
        if n & (n - 1) or n == 0:
            raise self.lx.error("Alignment must be a power of two", tok[2])
        return f".align {n}"

    # -- module
    def parse_module(self) -> A.Module:
        version, target, asize = None, (), 64
        version_line, target_line, asize_line, after_version_line = 1, 2, 3, 1
        items = []
        while True:
            tok = self.peek()
            if tok[0] == "EOF":
                break
            if tok[0] == "DIR" and tok[1] == ".version":
                self.next()
                version_line = self.line_of(tok)
                v = self.expect("NUM")
                try:
                    major, minor = v[1].split(".")
                    version = (int(major), int(minor))
                except ValueError:
                    raise self.error_at(v)
                after_version_line = self.line_of(self.peek())
                continue
            if tok[0] == "DIR" and tok[1] == ".target":
                self.next()
                target_line = self.line_of(tok)
                names = [self.expect("ID")[1]]
                while self.accept(","):
                    names.append(self.expect("ID")[1])
                target = tuple(names)
                continue
            if tok[0] == "DIR" and tok[1] == ".address_size":
                self.next()
                asize_line = self.line_of(tok)
                asize = self.int_const()
                if asize not in (32, 64):
                    raise self.lx.error("Illegal value for .address_size directive (must be 32 or 64)", tok[2])
                continue
            items.append(self.parse_toplevel())
        if version is None:
            raise PtxError(f"Missing .version directive at start of file '{self.file}'", 1, 1, self.file)
        if not target:
            raise PtxError(f"Missing .target directive at start of file '{self.file}'", after_version_line, 1,
                           self.file)
        return A.Module(version, target, asize, tuple(items), self.file, version_line, target_line,
                        asize_line)

    def parse_toplevel(self):
        start = self.peek()
        attrs = []
        while self.peek()[0] == "DIR" and self.peek()[1] in LINKAGE:
            attrs.append(self.next()[1])
        tok = self.peek()
        if tok[0] == "DIR" and tok[1] in (".entry", ".func"):
            return self.parse_function(tuple(attrs))
        if tok[0] == "DIR" and tok[1] in STATE_SPACES:
            decls = self.parse_vardecl(tuple(attrs))
            return decls[0] if len(decls) == 1 else A.Block(tuple(decls), self.line_of(start))
        if tok[0] == "DIR" and not attrs:
            return self.parse_directive()
        raise self.error_at(tok)

    def parse_directive(self) -> A.Directive:
        tok = self.next()
        if tok[1] not in KNOWN_DIRECTIVES:
            raise self.error_at(tok)
        name = tok[1]
        line = self.line_of(tok)
        parts = []
        if name in LINE_DIRECTIVES:
            while True:
                t = self.peek()
                if t[0] == "EOF" or self.line_of(t) != line:
                    break
                parts.append(self.next()[1])
            return A.Directive(name, " ".join(parts), line)
        if name == ".section" and not self.lx._buf:
            text = self._fast_section()
            if text is not None:
                return A.Directive(name, text, line)
        depth = 0
        while True:
            t = self.peek()
            if t[0] == "EOF":
                raise self.error_at(t)
            if t[0] == ";" and depth == 0:
                self.next()
                break
            if t[0] == "{":
                depth += 1
            elif t[0] == "}":
                depth -= 1
                if depth == 0 and name == ".section":
                    parts.append(self.next()[1])
                    break
            parts.append(self.next()[1])
        return A.Directive(name, " ".join(parts), line)

    def _fast_section(self) -> str | None:
        """The text of a `.section NAME { ... }` matched by _FAST_SECTION (its tokens joined by blanks, as the
        token loop below gives it), consumed; None (nothing consumed) when the body needs the token path."""
        lx = self.lx
        m = _FAST_SECTION.match(lx.text, lx._end)
        if m is None:
            return None
        parts, pos = [], m.start(1)
        for t in TOKEN_RE.finditer(lx.text, pos, m.end()):
            if t.start() != pos:
                return None
            pos = t.end()
            if t.lastgroup != "WS":
                parts.append(t.group())
        if pos != m.end():
            return None
        lx.consume_to(pos)
        return " ".join(parts)

    # -- declarations
    def parse_vardecl(self, linkage: tuple[str, ...]) -> list[A.VarDecl]:
        tok = self.next()
        space = tok[1]
        line = self.line_of(tok)
        attrs = list(linkage)
        while True:
            t = self.peek()
            if t[0] == "DIR":
                attrs.append(self.next()[1])
                if attrs[-1] == ".align":
                    attrs[-1] = self.align_attr()
            else:
                break
        decls = []
        while True:
            name = self.expect("ID")[1]
            count = None
            dims = []
            init = None
            if self.accept("<"):
                count = self.int_const(U32_MAX)
                self.expect(">")
            while self.accept("["):
                if self.accept("]"):
                    dims.append("")
                else:
                    dims.append(str(self.int_const()))
                    self.expect("]")
            if self.accept("="):
                init = self.parse_initializer()
            decls.append(A.VarDecl(space, tuple(attrs), name, count, tuple(dims), init, line))
            if not self.accept(","):
                break
        self.expect(";")
        return decls

    def parse_initializer(self) -> str:
        parts = []
        depth = 0
        while True:
            t = self.peek()
            if t[0] == "EOF":
                raise self.error_at(t)
            if depth == 0 and t[0] in (";", ","):
                break
            if t[0] in "{(":
                depth += 1
            elif t[0] in "})":
                depth -= 1
            parts.append(self.next()[1])
        return " ".join(parts)

    def parse_params(self) -> tuple[A.Param, ...]:
        self.expect("(")
        params = []
        if self.accept(")"):
            return ()
        while True:
            sp = self.next()
            if sp[0] != "DIR" or sp[1] not in (".param", ".reg"):
                raise self.error_at(sp)
            attrs = []
            while self.peek()[0] == "DIR":
                attrs.append(self.next()[1])
                if attrs[-1] == ".align":
                    attrs[-1] = self.align_attr()
            name = self.expect("ID")[1]
            dims = []
            while self.accept("["):
                dims.append(str(self.int_const()))
                self.expect("]")
            params.append(A.Param(sp[1], tuple(attrs), name, tuple(dims)))
            if self.accept(")"):
                return tuple(params)
            self.expect(",")

    def parse_function(self, linkage) -> A.Function:
        kind_tok = self.next()
        rets = ()
        if self.peek()[0] == "(":
            rets = self.parse_params()
        name = self.expect("ID")[1]
        params = ()
        if self.peek()[0] == "(":
            params = self.parse_params()
        perf = []
        while self.peek()[0] == "DIR" and self.peek()[1] in PERF_DIRECTIVES:
            t = self.next()
            parts = []
            while self.peek()[0] in ("NUM", ",", "STR", "ID"):
                parts.append(self.next()[1])
            if t[1] == ".pragma":
                self.expect(";")
            perf.append(A.Directive(t[1], " ".join(parts), self.line_of(t)))
        body = None
        if self.accept(";"):
            body = None
        else:
            self.expect("{")
            body = self.parse_body()
        return A.Function(kind_tok[1], tuple(linkage), name, params, rets, tuple(perf), body, self.line_of(kind_tok))

    # -- bodies
    def parse_body(self) -> tuple:
        """Statements up to the matching '}' (consumed). Nested `{ }` scopes are kept on an explicit stack (no
        recursion: ptxas accepts thousands of levels)."""
        out = []
        open_blocks: list[tuple[list, int]] = []     # (the enclosing scope's statements, the '{' line)
        lx = self.lx
        while True:
            if not lx._buf and self._fast_run(out):
                continue
            tok = self.peek()
            kind = tok[0]
            if kind == "}":
                self.next()
                if not open_blocks:
                    return tuple(out)
                outer, line = open_blocks.pop()
                outer.append(A.Block(tuple(out), line))
                out = outer
                continue
            if kind == "EOF":
                raise self.error_at(tok)
            if kind == "{":
                if len(open_blocks) >= MAX_SCOPE_DEPTH:
                    raise self.error_at(tok, "Parsing error near '{': memory exhausted")
                self.next()
                open_blocks.append((out, self.line_of(tok)))
                out = []
            elif kind == "DIR":
                if tok[1] in STATE_SPACES:
                    out.extend(self.parse_vardecl(()))
                elif tok[1] in LINKAGE:
                    link = []
                    while self.peek()[0] == "DIR" and self.peek()[1] in LINKAGE:
                        link.append(self.next()[1])
                    out.extend(self.parse_vardecl(tuple(link)))
                else:
                    out.append(self.parse_directive())
            elif kind == "ID" and self.peek(1)[0] == ":":
                if not _IDENT.fullmatch(tok[1]):      # `a.b:` is no label (ptxas: syntax error at ':')
                    raise self.error_at(self.peek(1))
                self.next()
                self.next()
                out.append(A.Label(tok[1], self.line_of(tok)))
            elif kind == "ID" or kind == "@":
                out.append(self.parse_instruction())
            else:
                raise self.error_at(tok)

    def _fast_run(self, out: list) -> bool:
        """Parse consecutive simple one-line instructions straight from the text (the hot loop of the
        parser); returns whether it consumed any. Stops at the first statement of another shape."""
        lx = self.lx
        text = lx.text
        match = _FAST_INSTR.match
        names, oplists = self._names, self._operand_lists
        Instruction, Reg, Not = A.Instruction, A.Reg, A.Not
        pos = start_pos = lx._end
        line, lstart, lpos = lx._lline, lx._lstart, lx._lpos
        loc_match = _FAST_LOC.match if self._has_loc else _no_match
        while True:
            m = match(text, pos)
            if m is None:                 # a `.loc` line, or the end of the fast path
                m = loc_match(text, pos)
                if m is None:
                    break
                split = None
                start = m.start(1)
            else:
                neg, g, name, ops = m.groups()
                split = names.get(name)
                if split is None:
                    parts = name.split(".")
                    split = names[name] = (parts[0], tuple("." + p for p in parts[1:]))
                if split[0] not in KNOWN_OPCODES:
                    break
                operands = ()
                if ops:
                    operands = oplists.get(ops)
                    if operands is None:
                        operands = _fast_operands(ops)
                        if operands is None:
                            break             # not the simple shape: the token path parses (and diagnoses) it
                        oplists[ops] = operands
                start = m.start(1) - 1 if g else m.start(3)
            if start < lpos:
                break
            n = text.count("\n", lpos, start)
            if n:
                line += n
                lstart = text.rfind("\n", lpos, start) + 1
            lpos = start
            if split is None:
                out.append(A.Directive(".loc", _loc_text(m), line))
            else:
                guard = None if not g else (Not(Reg(g)) if neg else Reg(g))
                out.append(Instruction(split[0], split[1], operands, guard, line, start - lstart + 1))
            pos = m.end()
        if pos == start_pos:
            return False
        lx._lline, lx._lstart, lx._lpos = line, lstart, lpos
        lx.consume_to(pos)
        return True

    def parse_instruction(self) -> A.Instruction:
        guard = None
        first = self.peek()
        if self.accept("@"):
            neg = bool(self.accept("!"))
            g = self.expect("ID")
            guard = A.Not(A.Reg(g[1])) if neg else A.Reg(g[1])
        tok = self.next()
        if tok[0] != "ID":
            raise self.error_at(tok)
        parts = tok[1].split(".")
        opcode = parts[0]
        if opcode not in self.known_opcodes:
            raise self.error_at(tok, f"Not a name of any known instruction: '{opcode}'")
        mods = tuple("." + p for p in parts[1:])
        operands = []
        if self.peek()[0] != ";":
            while True:
                operands.append(self.parse_operand())
                t = self.next()
                if t[0] == ";":
                    break
                if t[0] != ",":
                    raise self.error_at(t)
        else:
            self.next()
        line, col = self.lx.linecol(first[2])
        return A.Instruction(opcode, mods, tuple(operands), guard, line, col)

    def parse_operand(self, inside: frozenset = frozenset()):
        """One operand. `inside`: the brackets around it; a vector in a vector, an address in an address, a
        list in a list or a negated non-name is a syntax error in ptxas, so nesting depth is bounded."""
        tok = self.peek()
        kind = tok[0]
        if kind in inside:
            raise self.error_at(tok)
        if kind == "ID":
            self.next()
            nxt = self.peek()[0]
            if nxt == "|":
                self.next()
                return A.Pair(_id_operand(tok[1]), _id_operand(self.expect("ID")[1]))
            if nxt in ("+", "-") and self.peek(1)[0] == "NUM":
                op = self.next()[1]
                num = self.next()[1]
                return A.Expr(f"{tok[1]}{op}{num}")
            if nxt == "(" and tok[1] in ("generic",):
                return A.Expr(tok[1] + self._balanced_text())
            return _id_operand(tok[1])
        if kind == "NUM":
            self.next()
            if not _in_range(tok[1]):
                raise self.lx.error("Constant overflow", tok[2])
            return A.Imm(tok[1])
        if kind == "-":
            self.next()
            t = self.next()
            if t[0] == "NUM":
                if not _in_range(t[1]):
                    raise self.lx.error("Constant overflow", t[2])
                return A.Imm("-" + t[1])
            if t[0] == "ID":
                return A.Neg(A.Reg(t[1]))
            raise self.error_at(t)
        if kind == "!":
            self.next()
            return A.Not(_id_operand(self.expect("ID")[1]))
        if kind == "[":
            return self.parse_address(inside | {"["})
        if kind == "{":
            self.next()
            items = []
            if not self.accept("}"):
                while True:
                    items.append(self.parse_operand(inside | {"{"}))
                    if self.accept("}"):
                        break
                    self.expect(",")
            return A.Vec(tuple(items))
        if kind == "(":
            self.next()
            items = []
            if not self.accept(")"):
                while True:
                    items.append(self.parse_operand(inside | {"("}))
                    if self.accept(")"):
                        break
                    self.expect(",")
            return A.Paren(tuple(items))
        raise self.error_at(tok)

    def _balanced_text(self) -> str:
        parts = []
        depth = 0
        while True:
            t = self.next()
            if t[0] == "EOF":
                raise self.error_at(t)
            parts.append(t[1])
            if t[0] == "(":
                depth += 1
            elif t[0] == ")":
                depth -= 1
                if depth == 0:
                    return "".join(parts)

    def parse_address(self, inside: frozenset = frozenset({"["})) -> A.Addr:
        self.expect("[")
        items = []
        offset = 0
        open_item = True                  # an operand may start here: at '[' or after ','
        while True:
            t = self.peek()
            if t[0] == "]":
                self.next()
                break
            if t[0] not in ("+", "-", ",", "]"):
                if not open_item:
                    raise self.error_at(t)
                open_item = False
            if t[0] == "NUM" and not items:
                self.next()
                items.append(A.Imm(t[1]))
            elif t[0] == "ID":
                self.next()
                items.append(_id_operand(t[1]))
            elif t[0] in ("+", "-") and items:
                self.next()
                sign = -1 if t[0] == "-" else 1
                if self.accept("-"):
                    sign = -sign
                n = self.expect("NUM")
                if not _is_int_literal(n[1]):
                    raise self.error_at(n)
                offset += sign * int(A.parse_number(n[1]))
            elif t[0] == ",":
                self.next()
                open_item = True
            else:
                items.append(self.parse_operand(inside))
        if not items:
            raise self.error_at(self.peek())
        return A.Addr(tuple(items), offset)


def _id_operand(text: str):
    if text == "_":
        return A.Sink()
    if text[0] == "%":
        return A.Reg(text)
    return A.Sym(text)


# Characters ptxas's reader stops at before any parsing: a non-ASCII character (in a comment too; a byte that is
# not UTF-8 arrives here as a surrogate) and NUL, anywhere in the file.
_BAD_CHAR = lazy_compile(r"[^\x01-\x7f]")


def check_characters(text: str, file: str = "<input>") -> None:
    if text.isascii() and "\x00" not in text:
        return
    m = _BAD_CHAR.search(text)
    if m:
        line = text.count("\n", 0, m.start()) + 1
        col = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
        what = "EOF" if m.group() == "\x00" else "non-ASCII character"
        raise PtxError(f"Unexpected {what} encountered on line {line}", line, col, file)


def parse(text: str, file: str = "<input>") -> A.Module:
    check_characters(text, file)
    return Parser(text, file).parse_module()
