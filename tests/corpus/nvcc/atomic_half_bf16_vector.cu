// corpus: -arch=sm_90
// Reduced-precision and vector atomics for gradient accumulation: atomicAdd on __half, __half2,
// __nv_bfloat16, __nv_bfloat162 (atom.add.noftz.f16/bf16 and .f16x2/.bf16x2), and the sm_90 vector forms
// atomicAdd(float2 *) / atomicAdd(float4 *) (red/atom.global.v2/v4.f32) for scatter-add of embeddings.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

extern "C" __global__ void scatter_add_half(const int *idx, const __half *g, const __half2 *g2,
                                            __half *w, __half2 *w2, __half *old_out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int row = idx[t];
    atomicAdd(&w2[row], g2[t]);
    old_out[t] = atomicAdd(&w[row * 2], g[t]);
}

extern "C" __global__ void scatter_add_bf16(const int *idx, const __nv_bfloat16 *g, const __nv_bfloat162 *g2,
                                            __nv_bfloat16 *w, __nv_bfloat162 *w2)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int row = idx[t];
    atomicAdd(&w[row], g[t]);
    atomicAdd(&w2[row], g2[t]);
}

extern "C" __global__ void scatter_add_float_vectors(const int *idx, const float4 *g4, const float2 *g2,
                                                     float4 *w4, float2 *w2, float4 *old4)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int row = idx[t];
    float4 o = atomicAdd(&w4[row], g4[t]);
    atomicAdd(&w2[row], g2[t]);
    if (o.x < 0.f) old4[t] = o;
}
