// corpus: -arch=sm_80
// Producer/consumer kernels over named barriers (inline PTX bar.sync / bar.arrive) in warp-specialised arms:
// guarded arrives in a loop, a consumer that also runs a divergent inner loop, a barrier at the arms' join.
__device__ __forceinline__ void nb_sync(int id, int n) { asm volatile("bar.sync %0, %1;" :: "r"(id), "r"(n) : "memory"); }
__device__ __forceinline__ void nb_arrive(int id, int n) { asm volatile("bar.arrive %0, %1;" :: "r"(id), "r"(n) : "memory"); }

// one producer warp, one consumer warp, a ring of two stages, the consumer frees a stage only if more come
extern "C" __global__ void __launch_bounds__(64) w39_ring2(const int *in, int *out, int n)
{
    __shared__ int buf[2][64];
    int t = threadIdx.x;
    if (t < 32) {
        for (int c = 0; c < n; ++c) {
            int s = c & 1;
            if (c >= 2) nb_sync(3 + s, 64);
            buf[s][t] = in[c * 32 + t];
            buf[s][t + 32] = in[c * 32 + t] * 3;
            nb_arrive(1 + s, 64);
        }
    } else {
        int acc = 0;
        for (int c = 0; c < n; ++c) {
            int s = c & 1;
            nb_sync(1 + s, 64);
            acc += buf[s][t - 32] ^ buf[s][t];
            if (c + 2 < n) nb_arrive(3 + s, 64);
        }
        out[blockIdx.x * 32 + t - 32] = acc;
    }
    __syncthreads();
}

// consumer with a divergent strided loop between its sync and its arrive
extern "C" __global__ void __launch_bounds__(128) w39_strided_consumer(const float *in, float *out, int n, int len)
{
    __shared__ float buf[256];
    int t = threadIdx.x;
    if (t < 32) {
        for (int c = 0; c < n; ++c) {
            if (c > 0) nb_sync(2, 128);
            for (int k = t; k < 256; k += 32) buf[k] = in[c * 256 + k];
            nb_arrive(1, 128);
        }
    } else {
        float acc = 0.f;
        for (int c = 0; c < n; ++c) {
            nb_sync(1, 128);
            for (int k = t - 32; k < len; k += 96) acc += buf[k & 255];
            if (c + 1 < n) nb_arrive(2, 128);
        }
        out[blockIdx.x * 96 + t - 32] = acc;
    }
}

// if/else over named barriers then a CTA barrier at the join (the arms never meet a BSSY)
extern "C" __global__ void __launch_bounds__(256) w39_split_join(const double *in, double *out, int n)
{
    __shared__ double s[128];
    int t = threadIdx.x;
    if (t >= 128) {
        s[t - 128] = in[blockIdx.x * 128 + t - 128] * 0.5;
        nb_arrive(5, 256);
    } else {
        nb_sync(5, 256);
        out[blockIdx.x * 128 + t] = s[127 - t] + (double)n;
    }
    __syncthreads();
    if (t == 0) out[gridDim.x * 128 + blockIdx.x] = s[0];
}

// unsigned loop counter, a do-while consumer, the arrive guarded by a flag read from memory
extern "C" __global__ void __launch_bounds__(96) w39_flag_arrive(const unsigned *in, unsigned *out, unsigned n, const int *flags)
{
    __shared__ unsigned stage[64];
    unsigned t = threadIdx.x;
    if (t < 32) {
        unsigned c = 0;
        do {
            stage[t] = in[c * 32 + t];
            stage[t + 32] = in[c * 32 + t] + c;
            nb_arrive(1, 96);
            nb_sync(2, 96);
        } while (++c < n);
    } else {
        unsigned acc = 0;
        unsigned c = 0;
        do {
            nb_sync(1, 96);
            acc = acc * 31u + stage[t - 32];
            if (flags[c] != 0) acc ^= c;
            nb_arrive(2, 96);
        } while (++c < n);
        out[blockIdx.x * 64 + t - 32] = acc;
    }
}
