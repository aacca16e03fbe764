"""Dropout kernels as in Triton's low-memory-dropout tutorial (mask from memory; Philox-seeded) and a fused
dropout + residual add."""
import triton
import triton.language as tl


@triton.jit
def dropout_kernel(x_ptr, x_keep_ptr, output_ptr, n_elements, p, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    x_keep = tl.load(x_keep_ptr + offsets, mask=mask)
    output = tl.where(x_keep, x / (1 - p), 0.0)
    tl.store(output_ptr + offsets, output, mask=mask)


@triton.jit
def seeded_dropout_kernel(x_ptr, output_ptr, n_elements, p, seed, BLOCK_SIZE: tl.constexpr):
    # the keep mask is regenerated from (seed, offset) with Philox instead of being stored
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    random = tl.rand(seed, offsets)
    x_keep = random > p
    output = tl.where(x_keep, x / (1 - p), 0.0)
    tl.store(output_ptr + offsets, output, mask=mask)


@triton.jit
def dropout_residual_add_kernel(x_ptr, residual_ptr, out_ptr, seed_ptr, n_rows, n_cols, p,
                                BLOCK_SIZE: tl.constexpr):
    # per-row seeds read from memory, 4 random numbers per Philox call
    row = tl.program_id(0)
    seed = tl.load(seed_ptr + row)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0).to(tl.float32)
    r = tl.load(residual_ptr + row * n_cols + cols, mask=mask, other=0.0).to(tl.float32)
    r0, r1, r2, r3 = tl.rand4x(seed, cols // 4)
    rnd = tl.where(cols % 4 == 0, r0, tl.where(cols % 4 == 1, r1, tl.where(cols % 4 == 2, r2, r3)))
    y = tl.where(rnd > p, x / (1 - p), 0.0) + r
    tl.store(out_ptr + row * n_cols + cols, y.to(out_ptr.dtype.element_ty), mask=mask)
