// corpus: -arch=sm_75
// Global-memory atomics: atomicAdd int/unsigned/ull/float/double, atomicSub, atomicExch, atomicMin/Max,
// atomicAnd/Or/Xor, atomicInc/Dec, used and unused results.
extern "C" __global__ void atomics_global(int *ci, unsigned *cu, unsigned long long *cull, float *cf, double *cd,
                                          int *old)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(ci, 1);                       // result unused -> RED
    atomicAdd(cf, 0.5f);
    atomicAdd(cd, 0.25);
    atomicAdd(cull, 3ull);
    atomicSub(ci + 1, i);
    atomicMin(ci + 2, i);
    atomicMax(ci + 3, i);
    atomicMin(cu + 0, (unsigned)i);
    atomicMax(cu + 1, (unsigned)i);
    atomicAnd(cu + 2, ~(1u << (i & 31)));
    atomicOr(cu + 3, 1u << (i & 31));
    atomicXor(cu + 4, (unsigned)i);
    old[i * 6 + 0] = atomicAdd(ci + 4, i);  // result used -> ATOM
    old[i * 6 + 1] = __float_as_int(atomicAdd(cf + 1, 1.0f));
    old[i * 6 + 2] = (int)atomicAdd(cd + 1, 2.0);
    old[i * 6 + 3] = atomicExch(ci + 5, i);
    old[i * 6 + 4] = atomicInc(cu + 5, 100u);
    old[i * 6 + 5] = atomicDec(cu + 6, 100u);
    old[i * 6 + 6] = __float_as_int(atomicExch(cf + 2, (float)i));
    old[i * 6 + 7] = (int)atomicMax(cull + 1, (unsigned long long)i);
}
