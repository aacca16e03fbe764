// corpus: -arch=sm_75
// Named barriers with immediate ids and counts (bar.sync 1, 64; barrier.sync.aligned 2; bar.red.popc on id 3).
extern "C" __global__ void __launch_bounds__(128) named_barrier_imm(int *out)
{
    __shared__ int s[128];
    int tid = threadIdx.x;
    s[tid] = tid * 3;
    if (tid < 64) {
        asm volatile("bar.sync 1, 64;" ::: "memory");
        out[tid] = s[63 - tid];
    } else {
        asm volatile("barrier.sync.aligned 2, 64;" ::: "memory");
        out[tid] = s[191 - tid];
    }
    int c;
    asm volatile("{ .reg .pred p; setp.ne.s32 p, %1, 0; bar.red.popc.u32 %0, 3, p; }" : "=r"(c) : "r"(out[tid] & 1) : "memory");
    out[128 + tid] = c;
}
