// corpus: -arch=sm_75
// cub::BlockHistogram: BLOCK_HISTO_ATOMIC (shared atomics) on 8-bit samples and BLOCK_HISTO_SORT (radix sort +
// discontinuity run lengths) on 6-bit bins; block histograms are zeroed with InitHistogram, then merged into the
// global one with atomicAdd.
#include <cub/block/block_histogram.cuh>
#include <cub/block/block_load.cuh>

extern "C" __global__ void __launch_bounds__(256)
block_histogram_atomic(const unsigned char *samples, unsigned *hist, int n)
{
    using BH = cub::BlockHistogram<unsigned char, 256, 4, 256, cub::BLOCK_HISTO_ATOMIC>;
    __shared__ typename BH::TempStorage tmp;
    __shared__ unsigned smem_hist[256];
    BH bh(tmp);
    bh.InitHistogram(smem_hist);
    __syncthreads();
    for (int base = blockIdx.x * 1024; base < n; base += gridDim.x * 1024) {
        unsigned char s[4];
        cub::LoadDirectStriped<256>(threadIdx.x, samples + base, s);
        bh.Composite(s, smem_hist);
    }
    __syncthreads();
    atomicAdd(&hist[threadIdx.x], smem_hist[threadIdx.x]);
}

extern "C" __global__ void __launch_bounds__(128)
block_histogram_sort(const unsigned char *samples, unsigned *hist)
{
    using BH = cub::BlockHistogram<unsigned char, 128, 8, 64, cub::BLOCK_HISTO_SORT>;
    __shared__ typename BH::TempStorage tmp;
    __shared__ unsigned smem_hist[64];
    unsigned char s[8];
    cub::LoadDirectBlocked(threadIdx.x, samples + blockIdx.x * 1024, s);
#pragma unroll
    for (int k = 0; k < 8; ++k) s[k] &= 63;
    BH(tmp).Histogram(s, smem_hist);
    __syncthreads();
    if (threadIdx.x < 64 && smem_hist[threadIdx.x]) atomicAdd(&hist[threadIdx.x], smem_hist[threadIdx.x]);
}
