// corpus: -arch=sm_90a -std=c++17 --expt-relaxed-constexpr -I{cutlass}
// CUTLASS 3.x Hopper GEMMs built with the collective builders (cutlass::gemm::kernel::GemmUniversal over a
// CollectiveBuilder main loop and epilogue): f16 x f16 -> f32 128x128x64 tiles on a 2x1x1 cluster with the
// KernelTmaWarpSpecializedCooperative schedule (TMA multicast loads, PipelineTmaAsync full/empty mbarriers,
// wgmma, producer/consumer warpgroups with setmaxnreg, TMA epilogue), and a 64x128x64 KernelTmaWarpSpecializedPingpong
// variant (two consumer warpgroups alternating through an ordered sequence barrier). Kernel bodies are
// cutlass::device_kernel's.
#include <cutlass/cutlass.h>
#include <cute/tensor.hpp>
#include <cutlass/gemm/collective/collective_builder.hpp>
#include <cutlass/epilogue/collective/collective_builder.hpp>
#include <cutlass/gemm/kernel/gemm_universal.hpp>

using namespace cute;

template <class Tile, class Cluster, class MainSched, class EpiSched>
struct HopperGemm {
    using EA = cutlass::half_t;
    using EC = float;
    using Epi = typename cutlass::epilogue::collective::CollectiveBuilder<
        cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, Tile, Cluster,
        cutlass::epilogue::collective::EpilogueTileAuto, float, float,
        EC, cutlass::layout::RowMajor, 4, EC, cutlass::layout::RowMajor, 4, EpiSched>::CollectiveOp;
    using Main = typename cutlass::gemm::collective::CollectiveBuilder<
        cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp,
        EA, cutlass::layout::RowMajor, 8, EA, cutlass::layout::ColumnMajor, 8, float, Tile, Cluster,
        cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(sizeof(typename Epi::SharedStorage))>,
        MainSched>::CollectiveOp;
    using Kernel = cutlass::gemm::kernel::GemmUniversal<Shape<int, int, int, int>, Main, Epi>;
};

using Coop = HopperGemm<Shape<_128, _128, _64>, Shape<_2, _1, _1>,
                        cutlass::gemm::KernelTmaWarpSpecializedCooperative,
                        cutlass::epilogue::TmaWarpSpecializedCooperative>::Kernel;
using Ping = HopperGemm<Shape<_64, _128, _64>, Shape<_1, _1, _1>,
                        cutlass::gemm::KernelTmaWarpSpecializedPingpong,
                        cutlass::epilogue::TmaWarpSpecialized>::Kernel;

extern "C" __global__ void __launch_bounds__(Coop::MaxThreadsPerBlock, Coop::MinBlocksPerMultiprocessor)
cutlass_sm90_gemm_tma_ws_cooperative(CUTLASS_GRID_CONSTANT Coop::Params const params)
{
    extern __shared__ char smem[];
    Coop op;
    op(params, smem);
}

extern "C" __global__ void __launch_bounds__(Ping::MaxThreadsPerBlock, Ping::MinBlocksPerMultiprocessor)
cutlass_sm90_gemm_tma_ws_pingpong(CUTLASS_GRID_CONSTANT Ping::Params const params)
{
    extern __shared__ char smem[];
    Ping op;
    op(params, smem);
}
