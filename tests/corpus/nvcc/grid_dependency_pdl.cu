// corpus: -arch=sm_90
// Programmatic dependent launch: cudaGridDependencySynchronize / cudaTriggerProgrammaticLaunchCompletion
// (griddepcontrol.wait / .launch_dependents) around a block reduction.
extern "C" __global__ void grid_dependency_pdl(const float *in, float *out)
{
    __shared__ float s[256];
    float pre = (float)threadIdx.x * 0.5f;          // prologue independent of the previous kernel
    cudaGridDependencySynchronize();
    s[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x] + pre;
    __syncthreads();
    for (int st = blockDim.x / 2; st > 0; st >>= 1) {
        if (threadIdx.x < st) s[threadIdx.x] += s[threadIdx.x + st];
        __syncthreads();
    }
    cudaTriggerProgrammaticLaunchCompletion();
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
