// corpus: -arch=sm_75
// cub::WarpReduce / cub::WarpScan: one row per warp (sum of a CSR row: y = A*x, full warps and 8-thread logical
// warps), HeadSegmentedSum over flagged segments, and WarpScan inclusive/exclusive with Broadcast of the warp
// total for per-warp output allocation.
#include <cub/warp/warp_reduce.cuh>
#include <cub/warp/warp_scan.cuh>

extern "C" __global__ void __launch_bounds__(128)
csr_spmv_warp_per_row(const int *row_ptr, const int *col, const float *val, const float *x, float *y, int rows)
{
    using WR = cub::WarpReduce<float>;
    __shared__ typename WR::TempStorage tmp[4];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int row = blockIdx.x * 4 + warp;
    if (row >= rows) return;
    float s = 0.f;
    for (int j = row_ptr[row] + lane; j < row_ptr[row + 1]; j += 32) s += val[j] * x[col[j]];
    s = WR(tmp[warp]).Sum(s);
    if (lane == 0) y[row] = s;
}

extern "C" __global__ void __launch_bounds__(256)
csr_spmv_subwarp8(const int *row_ptr, const int *col, const double *val, const double *x, double *y, int rows)
{
    using WR = cub::WarpReduce<double, 8>;
    __shared__ typename WR::TempStorage tmp[32];
    int sub = threadIdx.x / 8, lane = threadIdx.x % 8;
    int row = blockIdx.x * 32 + sub;
    double s = 0.0;
    if (row < rows)
        for (int j = row_ptr[row] + lane; j < row_ptr[row + 1]; j += 8) s += val[j] * x[col[j]];
    s = WR(tmp[sub]).Sum(s);
    if (lane == 0 && row < rows) y[row] = s;
}

extern "C" __global__ void __launch_bounds__(64)
warp_segmented_and_alloc(const int *v, const int *head, int *seg_out, int *counts, int *slot, int *cursor)
{
    using WR = cub::WarpReduce<int>;
    using WS = cub::WarpScan<int>;
    __shared__ typename WR::TempStorage rt[2];
    __shared__ typename WS::TempStorage st[2];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int i = blockIdx.x * 64 + threadIdx.x;
    int seg = WR(rt[warp]).HeadSegmentedSum(v[i], head[i]);
    if (head[i]) seg_out[i] = seg;
    int want = counts[i], incl, excl, total;
    WS(st[warp]).InclusiveSum(want, incl);
    WS(st[warp]).ExclusiveSum(want, excl, total);
    int base = 0;
    if (lane == 31) base = atomicAdd(cursor, incl);
    base = WS(st[warp]).Broadcast(base, 31);
    slot[i] = base + excl + (total - incl + want == total ? 0 : 0);
}
