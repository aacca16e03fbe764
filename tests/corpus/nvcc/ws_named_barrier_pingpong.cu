// corpus: -arch=sm_80 -lineinfo
// Warp-specialised producer/consumer over a double buffer synchronised only with named barriers (inline asm
// bar.sync / bar.arrive with thread counts): one producer warp loads each stage and bar.arrive's on the
// stage's FULL barrier, three consumer warps bar.sync on FULL and bar.arrive on EMPTY, the producer
// bar.sync's on EMPTY before refilling; __syncthreads (barrier 0) only at the start and end.
constexpr int PRODUCERS = 32, CONSUMERS = 96, THREADS = PRODUCERS + CONSUMERS, CHUNK = 384;

__device__ __forceinline__ void bar_sync(int id, int count) { asm volatile("bar.sync %0, %1;" :: "r"(id), "r"(count) : "memory"); }
__device__ __forceinline__ void bar_arrive(int id, int count) { asm volatile("bar.arrive %0, %1;" :: "r"(id), "r"(count) : "memory"); }

enum { FULL0 = 1, FULL1 = 2, EMPTY0 = 3, EMPTY1 = 4 };

extern "C" __global__ void __launch_bounds__(THREADS)
ws_named_barrier_pingpong(const float *in, float *out, int chunks)
{
    __shared__ float buf[2][CHUNK];
    __syncthreads();
    if (threadIdx.x < PRODUCERS) {
        for (int c = 0; c < chunks; ++c) {
            int s = c & 1;
            if (c >= 2) bar_sync(s ? EMPTY1 : EMPTY0, THREADS);
            for (int k = threadIdx.x; k < CHUNK; k += PRODUCERS) buf[s][k] = in[(size_t)c * CHUNK + k];
            __threadfence_block();
            bar_arrive(s ? FULL1 : FULL0, THREADS);
        }
    } else {
        int t = threadIdx.x - PRODUCERS;
        float acc = 0.f;
        for (int c = 0; c < chunks; ++c) {
            int s = c & 1;
            bar_sync(s ? FULL1 : FULL0, THREADS);
            for (int k = t; k < CHUNK; k += CONSUMERS) acc += buf[s][k] * buf[s][CHUNK - 1 - k];
            if (c + 2 < chunks) bar_arrive(s ? EMPTY1 : EMPTY0, THREADS);
        }
        out[blockIdx.x * CONSUMERS + t] = acc;
    }
    __syncthreads();
}
