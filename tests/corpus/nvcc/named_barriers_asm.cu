// corpus: -arch=sm_75
// Producer/consumer warps with named barriers through inline asm: bar.sync id,count / bar.arrive id,count.
__device__ __forceinline__ void named_sync(int id, int n) { asm volatile("bar.sync %0, %1;" :: "r"(id), "r"(n) : "memory"); }
__device__ __forceinline__ void named_arrive(int id, int n) { asm volatile("bar.arrive %0, %1;" :: "r"(id), "r"(n) : "memory"); }

extern "C" __global__ void __launch_bounds__(128) named_barriers_asm(const float *in, float *out, int iters)
{
    __shared__ float buf[2][64];
    int tid = threadIdx.x;
    bool producer = tid < 64;
    for (int it = 0; it < iters; ++it) {
        int slot = it & 1;
        if (producer) {
            if (it >= 2) named_sync(3 + slot, 128);        // wait until consumers freed the slot
            buf[slot][tid] = in[it * 64 + tid] * 2.0f;
            named_arrive(1 + slot, 128);                   // slot full
        } else {
            named_sync(1 + slot, 128);                     // wait for full
            out[it * 64 + tid - 64] = buf[slot][tid - 64] + 1.0f;
            named_arrive(3 + slot, 128);                   // slot empty
        }
    }
}
