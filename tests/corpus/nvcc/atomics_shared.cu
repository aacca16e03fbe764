// corpus: -arch=sm_75
// Shared-memory atomics (ATOMS): int add/min/max/exch/cas, float add (emulated with a CAS loop), double add.
extern "C" __global__ void atomics_shared(const int *in, const float *fin, int *out, float *fout, double *dout)
{
    __shared__ int si[8];
    __shared__ float sf;
    __shared__ double sd;
    if (threadIdx.x < 8) si[threadIdx.x] = 0;
    if (threadIdx.x == 0) { sf = 0.0f; sd = 0.0; }
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    atomicAdd(&si[0], v);
    atomicMin(&si[1], v);
    atomicMax(&si[2], v);
    atomicOr(&si[3], 1 << (v & 31));
    int o = atomicExch(&si[4], v);
    int c = atomicCAS(&si[5], 0, v);
    atomicAdd(&sf, fin[i]);
    atomicAdd(&sd, (double)fin[i]);
    out[blockDim.x * gridDim.x + i] = o + c;
    __syncthreads();
    if (threadIdx.x < 8) out[blockIdx.x * 8 + threadIdx.x] = si[threadIdx.x];
    if (threadIdx.x == 0) { fout[blockIdx.x] = sf; dout[blockIdx.x] = sd; }
}
