// corpus: -arch=sm_80 -std=c++17 -I{cutlass}
// CUTLASS 2.x multistage Ampere GEMMs (cutlass::gemm::device::Gemm, OpClassTensorOp, Sm80): f16 inputs,
// f32 accumulate, 128x128x32 threadblock / 64x64x32 warp / 16x8x16 mma, 3 stages (cp.async ring with
// cp.async.wait_group + __syncthreads per k-tile, ldmatrix, mma.sync), and a bf16 128x256x64 variant with
// 4 stages; each kernel body is cutlass::Kernel's (dynamic shared memory holding SharedStorage).
#include <cutlass/cutlass.h>
#include <cutlass/gemm/device/gemm.h>
#include <cutlass/epilogue/thread/linear_combination.h>

using namespace cutlass;

using GemmF16 = gemm::device::Gemm<
    half_t, layout::RowMajor, half_t, layout::ColumnMajor, float, layout::RowMajor, float,
    arch::OpClassTensorOp, arch::Sm80,
    gemm::GemmShape<128, 128, 32>, gemm::GemmShape<64, 64, 32>, gemm::GemmShape<16, 8, 16>,
    epilogue::thread::LinearCombination<float, 4, float, float>,
    gemm::threadblock::GemmIdentityThreadblockSwizzle<>, 3>;

using GemmBF16 = gemm::device::Gemm<
    bfloat16_t, layout::RowMajor, bfloat16_t, layout::RowMajor, bfloat16_t, layout::RowMajor, float,
    arch::OpClassTensorOp, arch::Sm80,
    gemm::GemmShape<128, 256, 64>, gemm::GemmShape<64, 64, 64>, gemm::GemmShape<16, 8, 16>,
    epilogue::thread::LinearCombination<bfloat16_t, 8, float, float>,
    gemm::threadblock::GemmIdentityThreadblockSwizzle<8>, 4>;

template <typename K>
__device__ __forceinline__ void run_kernel(typename K::Params const &params)
{
    extern __shared__ int smem[];
    K op;
    op(params, *reinterpret_cast<typename K::SharedStorage *>(smem));
}

extern "C" __global__ void __launch_bounds__(GemmF16::GemmKernel::kThreadCount)
cutlass_sm80_gemm_f16_s3(GemmF16::GemmKernel::Params params)
{
    run_kernel<GemmF16::GemmKernel>(params);
}

extern "C" __global__ void __launch_bounds__(GemmBF16::GemmKernel::kThreadCount)
cutlass_sm80_gemm_bf16_s4(GemmBF16::GemmKernel::Params params)
{
    run_kernel<GemmBF16::GemmKernel>(params);
}
