// corpus: -arch=sm_80 -std=c++17 -I{cutlass}
// CUTLASS reduction kernels: the split-K reduction that follows a parallel split-K GEMM
// (cutlass::reduction::kernel::ReduceSplitK, 4x128 output tiles, vectorised f32 partials, LinearCombination
// epilogue), and a tensor reduction over the contiguous rank of an NHWC tensor
// (TensorReductionAffineContiguous: per-thread batches of vector loads and a shared-memory block reduction
// with __syncthreads); kernel bodies are cutlass::Kernel's.
#include <cutlass/cutlass.h>
#include <cutlass/functional.h>
#include <cutlass/epilogue/thread/linear_combination.h>
#include <cutlass/reduction/thread/reduction_operators.h>
#include <cutlass/reduction/kernel/reduce_split_k.h>
#include <cutlass/reduction/kernel/tensor_reduce_affine_contiguous.h>

using SplitK = cutlass::reduction::kernel::ReduceSplitK<
    cutlass::MatrixShape<4, 32 * 4>,
    cutlass::epilogue::thread::LinearCombination<float, 4, float, float>,
    cutlass::reduction::thread::ReduceAdd<float, float, 4>>;

using RowSum = cutlass::reduction::kernel::TensorReductionAffineContiguous<
    4, 2, float, cutlass::half_t, cutlass::plus<float>, 8, float, 256, 4>;

template <typename K>
__device__ __forceinline__ void run_kernel(typename K::Params const &params)
{
    extern __shared__ int smem[];
    K op;
    op(params, *reinterpret_cast<typename K::SharedStorage *>(smem));
}

extern "C" __global__ void cutlass_reduce_split_k(SplitK::Params params) { run_kernel<SplitK>(params); }

extern "C" __global__ void __launch_bounds__(256) cutlass_tensor_reduce_contiguous(RowSum::Params params)
{
    run_kernel<RowSum>(params);
}
