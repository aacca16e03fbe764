// corpus: -arch=sm_90
// Fences as written with cuda::ptx on sm_90: fence.sc / fence.acq_rel at cta, cluster, gpu and sys scope,
// the PTX 8.6 fence.acquire / fence.release forms, fence.proxy.alias, fence.proxy.async.global /
// .shared::cta, fence.proxy.tensormap::generic release/acquire around an in-memory tensor-map update, and a
// warp-leader elected with elect.sync (inline asm) publishing a flag.
#include <cuda/ptx>
namespace ptx = cuda::ptx;

__device__ __forceinline__ bool elect_one()
{
    uint32_t pred = 0;
    asm volatile("{\n\t.reg .pred p;\n\telect.sync _|p, 0xffffffff;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(pred));
    return pred != 0;
}

extern "C" __global__ void __launch_bounds__(128)
fence_scopes_publish(int *data, int *flags, int *out)
{
    int t = blockIdx.x * 128 + threadIdx.x;
    data[t] = t;
    ptx::fence(ptx::sem_sc, ptx::scope_cta);
    data[t] += 1;
    ptx::fence(ptx::sem_acq_rel, ptx::scope_cluster);
    data[t] += 2;
    ptx::fence(ptx::sem_release, ptx::scope_gpu);
    if (elect_one()) flags[t / 32] = 1;
    ptx::fence(ptx::sem_sc, ptx::scope_sys);
    int f = flags[(t / 32) ^ 1];
    ptx::fence(ptx::sem_acquire, ptx::scope_gpu);
    out[t] = f + data[t ^ 32];
    ptx::fence(ptx::sem_acq_rel, ptx::scope_sys);
}

extern "C" __global__ void __launch_bounds__(64)
fence_proxies(int *g, const int *in, void *tmap_global, int *out)
{
    __shared__ alignas(128) int s[64];
    __shared__ alignas(128) char tmap[128];
    s[threadIdx.x] = in[blockIdx.x * 64 + threadIdx.x];
    ptx::fence_proxy_async(ptx::space_shared);
    g[blockIdx.x * 64 + threadIdx.x] = s[63 - threadIdx.x];
    ptx::fence_proxy_async(ptx::space_global);
    ptx::fence_proxy_alias();
    if (threadIdx.x < 32) tmap[threadIdx.x * 4] = (char)threadIdx.x;
    ptx::fence_proxy_async();
    __syncthreads();
    if (elect_one() && threadIdx.x < 32) {
        ptx::fence_proxy_tensormap_generic(ptx::sem_release, ptx::scope_gpu);
        ptx::fence_proxy_tensormap_generic(ptx::sem_acquire, ptx::scope_gpu, tmap_global, ptx::n32_t<128>());
    }
    out[blockIdx.x * 64 + threadIdx.x] = tmap[threadIdx.x] + s[threadIdx.x];
}
