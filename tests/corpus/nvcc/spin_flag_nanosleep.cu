// corpus: -arch=sm_75
// Inter-block signalling: volatile flag polling with __nanosleep back-off, a ticket lock built from atomicAdd /
// volatile loads and __threadfence, ld.volatile of data published before the flag.
extern "C" __global__ void spin_flag_nanosleep(volatile int *flag, volatile int *data, int *out,
                                               unsigned *next_ticket, volatile unsigned *now_serving, int *shared_ctr)
{
    if (blockIdx.x == 0) {
        if (threadIdx.x == 0) {
            data[0] = 123;
            __threadfence();
            *flag = 1;
        }
    } else {
        if (threadIdx.x == 0) {
            unsigned ns = 8;
            while (*flag == 0) { __nanosleep(ns); if (ns < 256) ns *= 2; }
            __threadfence();
        }
        __syncthreads();
        out[blockIdx.x * blockDim.x + threadIdx.x] = data[0];
    }
    if (threadIdx.x == 0) {
        unsigned my = atomicAdd(next_ticket, 1u);
        while (*now_serving != my) __nanosleep(32);
        __threadfence();
        *shared_ctr += 1;
        __threadfence();
        *now_serving = my + 1;
    }
}
