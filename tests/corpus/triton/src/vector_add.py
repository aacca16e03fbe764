"""Element-wise kernels in the style of Triton's first tutorial (vector addition) and its variants."""
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    # each program handles one BLOCK_SIZE slice of the vectors
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x + y, mask=mask)


@triton.jit
def add_grid_stride_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr, NUM_STAGES: tl.constexpr):
    # persistent variant: a grid-stride loop that the pipeliner can software-pipeline
    pid = tl.program_id(axis=0)
    nprog = tl.num_programs(axis=0)
    for block_start in tl.range(pid * BLOCK_SIZE, n_elements, nprog * BLOCK_SIZE, num_stages=NUM_STAGES):
        offsets = block_start + tl.arange(0, BLOCK_SIZE)
        mask = offsets < n_elements
        x = tl.load(x_ptr + offsets, mask=mask)
        y = tl.load(y_ptr + offsets, mask=mask)
        tl.store(output_ptr + offsets, x + y, mask=mask)


@triton.jit
def axpby_cast_kernel(x_ptr, y_ptr, out_ptr, alpha, beta, n_elements, BLOCK_SIZE: tl.constexpr):
    # mixed precision: loads in the storage type, computes in fp32, stores in the output type
    pid = tl.program_id(0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y = tl.load(y_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    r = alpha * x + beta * y
    tl.store(out_ptr + offs, r.to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def gelu_and_mul_kernel(x_ptr, out_ptr, n_cols, stride_row, BLOCK_SIZE: tl.constexpr):
    # SwiGLU/GeGLU-style activation used in LLM MLPs: out = gelu(x[:, :n]) * x[:, n:]
    row = tl.program_id(0)
    col_block = tl.program_id(1)
    cols = col_block * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    base = x_ptr + row * stride_row
    a = tl.load(base + cols, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(base + n_cols + cols, mask=mask, other=0.0).to(tl.float32)
    gelu = 0.5 * a * (1.0 + tl.erf(a * 0.7071067811865476))
    tl.store(out_ptr + row * n_cols + cols, (gelu * b).to(out_ptr.dtype.element_ty), mask=mask)
