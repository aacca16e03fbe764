// corpus: -arch=sm_80
// cuda::atomic / cuda::atomic_ref wait and notify in device code: a block-scope ticket handoff where waiting
// threads block in atomic_ref::wait (libcu++ polls with __nanosleep back-off) until the owner stores and
// notify_all()s, and a device-scope cuda::atomic<int> flag that a producer block sets with notify_one.
#include <cuda/atomic>

extern "C" __global__ void __launch_bounds__(128) atomic_ref_wait_turns(int *turn, int *log)
{
    __shared__ int s_turn;
    if (threadIdx.x == 0) s_turn = 0;
    __syncthreads();
    cuda::atomic_ref<int, cuda::thread_scope_block> t(s_turn);
    int me = threadIdx.x / 32;
    for (int cur = t.load(cuda::memory_order_acquire); cur != me; cur = t.load(cuda::memory_order_acquire))
        t.wait(cur, cuda::memory_order_acquire);
    if ((threadIdx.x & 31) == 0) log[blockIdx.x * 4 + me] = atomicAdd(turn, 1);
    __syncwarp();
    if ((threadIdx.x & 31) == 0) {
        t.store(me + 1, cuda::memory_order_release);
        t.notify_all();
    }
}

extern "C" __global__ void atomic_flag_notify(cuda::atomic<int, cuda::thread_scope_device> *flag, int *data, int *out)
{
    if (blockIdx.x == 0) {
        if (threadIdx.x == 0) {
            data[0] = 123;
            flag->store(1, cuda::memory_order_release);
            flag->notify_one();
        }
        return;
    }
    if (threadIdx.x == 0) {
        flag->wait(0, cuda::memory_order_acquire);
        out[blockIdx.x] = data[0];
    }
}
