// corpus: -arch=sm_80
// Atomics under conditions and of several kinds: float atomicAdd / atomicAdd_block in ifs, shared atomicMax/Min between barriers, atomicInc/Exch/Or/atomicAdd_system, a double max CAS loop.
__global__ void atomics_cond_float(float* acc, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0.f) atomicAdd(acc, in[i]);
  if (i < n && in[i] < 0.f) atomicAdd_block(acc + 1, -in[i]);
}
__global__ void atomics_shared_max(const int* in, int* out, int n) {
  __shared__ int smax, smin;
  if (threadIdx.x == 0) { smax = -2147483647; smin = 2147483647; }
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { atomicMax(&smax, in[i]); atomicMin(&smin, in[i]); }
  __syncthreads();
  if (threadIdx.x == 0) { atomicMax(out, smax); atomicMin(out + 1, smin); }
}
__global__ void atomics_ticket(unsigned* ticket, unsigned* slot, int* data) {
  unsigned t = atomicInc(ticket, 1023);
  unsigned old = atomicExch(slot + (t & 15), t);
  data[blockIdx.x * blockDim.x + threadIdx.x] = old;
  atomicAdd_system((int*)slot + 16, 1);
  atomicOr(slot + 17, 1u << (threadIdx.x & 31));
}
__global__ void atomics_cas_double(double* p, const double* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned long long* a = (unsigned long long*)p;
  unsigned long long old = *a, assumed;
  do {
    assumed = old;
    double m = fmax(__longlong_as_double(assumed), v[i]);
    old = atomicCAS(a, assumed, __double_as_longlong(m));
  } while (assumed != old);
}
