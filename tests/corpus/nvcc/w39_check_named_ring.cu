// corpus: -arch=sm_80
// Check kernels (another style): a CUTLASS-like NamedBarrier wrapper (struct with static arrive/sync), warp-group
// roles picked by a warp index, a three-stage ring with `stage = k % 3`, while loops and a persistent tile loop.
struct NamedBarrier {
    static __device__ __forceinline__ void sync(unsigned threads, unsigned id) {
        asm volatile("bar.sync %0, %1;" :: "r"(id), "r"(threads) : "memory");
    }
    static __device__ __forceinline__ void arrive(unsigned threads, unsigned id) {
        asm volatile("bar.arrive %0, %1;" :: "r"(id), "r"(threads) : "memory");
    }
};
enum : unsigned { kFull = 1, kEmpty = 4 };

// producer warp 0, consumers warps 1..3, three stages, the consumer releases a stage while more remain
extern "C" __global__ void __launch_bounds__(128) w39_check_ring3(const float2 *src, float *dst, int k_tiles)
{
    __shared__ float2 smem[3][96];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (warp == 0) {
        int k = 0;
        while (k < k_tiles) {
            const unsigned stage = k % 3;
            if (k >= 3) NamedBarrier::sync(128, kEmpty + stage);
            for (int i = lane; i < 96; i += 32) smem[stage][i] = src[k * 96 + i];
            NamedBarrier::arrive(128, kFull + stage);
            ++k;
        }
    } else {
        const int c = threadIdx.x - 32;
        float acc = 0.f;
        int k = 0;
        while (k < k_tiles) {
            const unsigned stage = k % 3;
            NamedBarrier::sync(128, kFull + stage);
            float2 v = smem[stage][c];
            acc = fmaf(v.x, v.y, acc);
            if (k + 3 < k_tiles) NamedBarrier::arrive(128, kEmpty + stage);
            ++k;
        }
        dst[blockIdx.x * 96 + c] = acc;
    }
}

// persistent kernel: the block walks tiles; math warps 0-1 and a loader warp 2 hand a tile over with named barriers
extern "C" __global__ void __launch_bounds__(96) w39_check_persistent(const int *src, int *dst, int tiles, int per_tile)
{
    __shared__ int tile_buf[64];
    const bool loader = threadIdx.x >= 64;
    int it = 0;
    for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x, ++it) {
        if (loader) {
            if (it > 0) NamedBarrier::sync(96, 2);
            const int l = threadIdx.x - 64;
            tile_buf[l] = src[tile * 64 + l];
            tile_buf[l + 32] = src[tile * 64 + l + 32] * per_tile;
            NamedBarrier::arrive(96, 1);
        } else {
            NamedBarrier::sync(96, 1);
            const int v = tile_buf[threadIdx.x] + tile_buf[63 - threadIdx.x];
            dst[tile * 64 + threadIdx.x] = v;
            if (tile + (int)gridDim.x < tiles) NamedBarrier::arrive(96, 2);
        }
    }
}
