"""Row-wise softmax kernels: the fused-softmax tutorial's persistent kernel and an online (two-pass) variant."""
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows, n_cols,
                   BLOCK_SIZE: tl.constexpr, num_stages: tl.constexpr):
    # programs loop over rows with a stride of the grid size; one row fits in BLOCK_SIZE
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step, num_stages=num_stages):
        row_start_ptr = input_ptr + row_idx * input_row_stride
        col_offsets = tl.arange(0, BLOCK_SIZE)
        input_ptrs = row_start_ptr + col_offsets
        mask = col_offsets < n_cols
        row = tl.load(input_ptrs, mask=mask, other=-float('inf'))
        row_minus_max = row - tl.max(row, axis=0)
        numerator = tl.exp(row_minus_max)
        denominator = tl.sum(numerator, axis=0)
        softmax_output = numerator / denominator
        output_row_start_ptr = output_ptr + row_idx * output_row_stride
        tl.store(output_row_start_ptr + col_offsets, softmax_output, mask=mask)


@triton.jit
def online_softmax_kernel(output_ptr, input_ptr, row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    # rows longer than one block: a running max / running sum pass, then a normalising pass
    row = tl.program_id(0)
    in_row = input_ptr + row * row_stride
    out_row = output_ptr + row * row_stride
    m = tl.full([BLOCK_SIZE], -float('inf'), tl.float32)
    d = tl.zeros([BLOCK_SIZE], tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        x = tl.load(in_row + cols, mask=cols < n_cols, other=-float('inf')).to(tl.float32)
        m_new = tl.maximum(m, x)
        d = d * tl.exp(m - m_new) + tl.exp(x - m_new)
        m = m_new
    m_row = tl.max(m, axis=0)
    d_row = tl.sum(d * tl.exp(m - m_row), axis=0)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        mask = cols < n_cols
        x = tl.load(in_row + cols, mask=mask, other=-float('inf')).to(tl.float32)
        y = tl.exp(x - m_row) / d_row
        tl.store(out_row + cols, y.to(output_ptr.dtype.element_ty), mask=mask)


@triton.jit
def log_softmax_backward_kernel(grad_in_ptr, grad_out_ptr, out_ptr, row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    # d_in = d_out - exp(out) * sum(d_out) for one row per program
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    g = tl.load(grad_out_ptr + row * row_stride + cols, mask=mask, other=0.0).to(tl.float32)
    o = tl.load(out_ptr + row * row_stride + cols, mask=mask, other=0.0).to(tl.float32)
    s = tl.sum(g, axis=0)
    tl.store(grad_in_ptr + row * row_stride + cols, (g - tl.exp(o) * s).to(grad_in_ptr.dtype.element_ty), mask=mask)
