// corpus: -arch=sm_75
// Scoped atomics: atomicAdd_block / _system, atomicCAS_block / _system, atomicExch_system, atomicMax_block.
extern "C" __global__ void atomics_scoped(int *c, float *f, unsigned long long *u, int *old)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd_block(c, 1);
    atomicAdd_system(c + 1, 1);
    atomicAdd_block(f, 1.0f);
    atomicAdd_system(f + 1, 2.0f);
    atomicMax_block(c + 2, i);
    atomicMin_system(c + 3, i);
    old[i * 4 + 0] = atomicCAS_block(c + 4, i, i + 1);
    old[i * 4 + 1] = atomicCAS_system(c + 5, i, i + 1);
    old[i * 4 + 2] = atomicExch_system(c + 6, i);
    old[i * 4 + 3] = (int)atomicAdd_system(u, 1ull);
}
