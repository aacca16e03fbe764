// corpus: -arch=sm_80
// Named barriers: producer/consumer warps with bar.arrive / bar.sync on two ids (a ping-pong buffer), a
// warp-specialized kernel where half the block syncs on its own barrier, and a barrier count in a register.

__device__ __forceinline__ void named_sync(int id, int n) { asm volatile("bar.sync %0, %1;" :: "r"(id), "r"(n) : "memory"); }
__device__ __forceinline__ void named_arrive(int id, int n) { asm volatile("bar.arrive %0, %1;" :: "r"(id), "r"(n) : "memory"); }

extern "C" __global__ void __launch_bounds__(128) b27_prod_cons(const float4 *in, float *out, int tiles)
{
    __shared__ float4 buf[2][64];
    int tid = threadIdx.x;
    bool producer = tid < 64;
    int slot = 0;
    if (producer) {
        for (int t = 0; t < tiles; ++t) {
            if (t >= 2) named_sync(3 + slot, 128);       // wait until consumers freed this slot
            buf[slot][tid] = in[(blockIdx.x * tiles + t) * 64 + tid];
            named_arrive(1 + slot, 128);                  // slot full
            slot ^= 1;
        }
    } else {
        int c = tid - 64;
        float acc = 0.f;
        for (int t = 0; t < tiles; ++t) {
            named_sync(1 + slot, 128);
            float4 v = buf[slot][c];
            acc += v.x + v.y + v.z + v.w;
            if (t + 2 < tiles) named_arrive(3 + slot, 128);
            slot ^= 1;
        }
        out[blockIdx.x * 64 + c] = acc;
    }
}

extern "C" __global__ void __launch_bounds__(256) b27_half_block(float *data, int iters)
{
    __shared__ float s[256];
    int tid = threadIdx.x;
    int half = tid >> 7;
    int l = tid & 127;
    s[tid] = data[blockIdx.x * 256 + tid];
    __syncthreads();
    for (int k = 0; k < iters; ++k) {
        float v = s[half * 128 + ((l + 1) & 127)];
        named_sync(1 + half, 128);
        s[tid] = 0.5f * (s[tid] + v);
        named_sync(1 + half, 128);
    }
    __syncthreads();
    data[blockIdx.x * 256 + tid] = s[tid] + s[255 - tid];
}

extern "C" __global__ void b27_dynamic_count(int *data, int nwarps_active)
{
    __shared__ int s[1024];
    int tid = threadIdx.x;
    if ((tid >> 5) < nwarps_active) {
        s[tid] = data[tid] * 3;
        named_sync(5, nwarps_active * 32);
        data[tid] = s[(tid + 32) % (nwarps_active * 32)];
    }
    __syncthreads();
    if (tid == 0) data[1023] = s[0];
}
