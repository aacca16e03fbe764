"""Kernels with data-dependent control flow (while loops, early returns, divergent branches), explicit barriers
(tl.debug_barrier), inline PTX (tl.inline_asm_elementwise), device asserts and grid-dependency control."""
import triton
import triton.language as tl
from triton.language.extra import libdevice
from triton.language.extra.cuda import gdc_launch_dependents, gdc_wait, globaltimer, smid


@triton.jit
def early_exit_kernel(x_ptr, out_ptr, lengths_ptr, stride, BLOCK: tl.constexpr):
    # variable-length rows: programs past the row's length return early
    row = tl.program_id(0)
    blk = tl.program_id(1)
    length = tl.load(lengths_ptr + row)
    if blk * BLOCK >= length:
        return
    cols = blk * BLOCK + tl.arange(0, BLOCK)
    mask = cols < length
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0)
    tl.store(out_ptr + row * stride + cols, x * 2.0, mask=mask)


@triton.jit
def binary_search_kernel(sorted_ptr, queries_ptr, out_ptr, n_sorted, n_queries, BLOCK: tl.constexpr):
    # scalar while loop per program over a sorted array (searchsorted), then a vector tail
    pid = tl.program_id(0)
    q = tl.load(queries_ptr + pid)
    lo = 0
    hi = n_sorted
    while lo < hi:
        mid = (lo + hi) // 2
        v = tl.load(sorted_ptr + mid)
        if v < q:
            lo = mid + 1
        else:
            hi = mid
    tl.store(out_ptr + pid, lo)


@triton.jit
def collatz_steps_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, MAX_ITERS: tl.constexpr):
    # a while loop whose trip count depends on the data of the whole block
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=1)
    steps = tl.zeros([BLOCK], dtype=tl.int32)
    it = 0
    while (tl.max(x, axis=0) > 1) & (it < MAX_ITERS):
        active = x > 1
        x = tl.where(active, tl.where(x % 2 == 0, x // 2, 3 * x + 1), x)
        steps += active.to(tl.int32)
        it += 1
    tl.store(out_ptr + offs, steps, mask=mask)


@triton.jit
def debug_barrier_kernel(x_ptr, out_ptr, scratch_ptr, n, BLOCK: tl.constexpr):
    # a block-wide exchange through global scratch with explicit CTA barriers in between
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + pid * BLOCK + offs, mask=pid * BLOCK + offs < n, other=0.0)
    tl.store(scratch_ptr + pid * BLOCK + offs, x)
    tl.debug_barrier()
    y = tl.load(scratch_ptr + pid * BLOCK + (BLOCK - 1 - offs))
    tl.debug_barrier()
    tl.store(scratch_ptr + pid * BLOCK + offs, x + y)
    tl.debug_barrier()
    z = tl.load(scratch_ptr + pid * BLOCK + ((offs + 1) % BLOCK))
    tl.store(out_ptr + pid * BLOCK + offs, z, mask=pid * BLOCK + offs < n)


@triton.jit
def inline_asm_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # inline PTX: a packed byte shift (4 elements per asm block), a funnel shift and a prmt
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    y = tl.load(y_ptr + offs, mask=mask, other=0)
    shifted = tl.inline_asm_elementwise(
        asm="""
        {
            .reg .b32 lo, hi;
            shl.b32 lo, $1, 1;
            and.b32 $0, lo, 0xfefefefe;
        }
        """, constraints="=r,r", args=[x.to(tl.uint8)], dtype=tl.uint8, is_pure=True, pack=4)
    x32 = x.to(tl.uint32, bitcast=True)
    y32 = y.to(tl.uint32, bitcast=True)
    funnel = tl.inline_asm_elementwise("shf.l.wrap.b32 $0, $1, $2, 7;", "=r,r,r", [x32, y32], dtype=tl.uint32,
                                       is_pure=True, pack=1)
    perm = tl.inline_asm_elementwise("prmt.b32 $0, $1, $2, 0x3210;", "=r,r,r", [y32, x32], dtype=tl.uint32,
                                     is_pure=True, pack=1)
    r = funnel ^ perm ^ shifted.to(tl.uint32)
    tl.store(out_ptr + offs, r.to(tl.int32, bitcast=True), mask=mask)


@triton.jit
def inline_asm_multi_output_kernel(x_ptr, lo_ptr, hi_ptr, n, BLOCK: tl.constexpr):
    # an asm block with two results (tuple dtype) and a non-pure asm reading special registers
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    lo, hi = tl.inline_asm_elementwise("mov.b64 {$0, $1}, $2;", "=r,=r,l", [x], dtype=(tl.int32, tl.int32),
                                       is_pure=True, pack=1)
    t = globaltimer()
    sm = smid()
    tl.store(lo_ptr + offs, lo + sm, mask=mask)
    tl.store(hi_ptr + offs, hi + (t & 0xff).to(tl.int32), mask=mask)


@triton.jit
def device_assert_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # tl.device_assert is kept when the kernel is compiled with debug=True (an __assertfail call)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    tl.device_assert(x >= 0, "negative input")
    tl.store(out_ptr + offs, x + 1, mask=mask)


@triton.jit
def pdl_add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr, USE_GDC: tl.constexpr):
    # programmatic dependent launch: wait for the previous grid before reading its output, then let the next start
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    y = tl.load(y_ptr + offs, mask=mask)
    if USE_GDC:
        gdc_wait()
    x = tl.load(x_ptr + offs, mask=mask)
    if USE_GDC:
        gdc_launch_dependents()
    tl.store(out_ptr + offs, x + y, mask=mask)


@triton.jit
def divergent_branches_kernel(x_ptr, out_ptr, kind_ptr, n, BLOCK: tl.constexpr):
    # a per-program switch on a loaded value, with a libdevice call on one path and a loop on another
    pid = tl.program_id(0)
    kind = tl.load(kind_ptr + pid)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    if kind == 0:
        y = libdevice.tanh(x)
    elif kind == 1:
        y = x
        for i in range(0, kind + 3):
            y = y * 0.5 + libdevice.fast_expf(-y)
    else:
        y = tl.sqrt(tl.abs(x))
    tl.store(out_ptr + offs, y, mask=mask)
