// corpus: -arch=sm_80
// Uniform vote branches, match and partial-mask syncwarp (fresh kernels, helper nvintrin32).
#define FULL 0xffffffffu

// if the whole warp is in range take the fast path, else a guarded slow path
extern "C" __global__ void wi32_all_fast_path(const float *x, float *y, int n, float a)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool ok = i < n;
    if (__all_sync(FULL, ok)) {
        float v = x[i];
        float s = v * a;
        y[i] = s + __shfl_xor_sync(FULL, s, 1);
    } else {
        if (ok) y[i] = x[i] * a;
    }
}

// any lane has work: the warp loads a tile, otherwise only lane 0 records an empty tile
extern "C" __global__ void wi32_any_work(const int *work, int *out, int *empty_count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int w = work[i];
    if (__any_sync(FULL, w != 0)) {
        int total = __reduce_add_sync(FULL, w);
        int mx = __reduce_max_sync(FULL, w);
        if ((threadIdx.x & 31) == 0) out[i >> 5] = total * 2 + mx;
    } else {
        if ((threadIdx.x & 31) == 0) atomicAdd(empty_count, 1);
    }
}

// group lanes by key: match_any gives the peers, match_all says whether the warp agrees
extern "C" __global__ void wi32_match_groups(const int *keys, const int *vals, int *out, int *uniform_flag)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int k = keys[i];
    int v = vals[i];
    unsigned peers = __match_any_sync(FULL, k);
    int pred;
    unsigned allm = __match_all_sync(FULL, k, &pred);
    int leader = __ffs(peers) - 1;
    int lane = threadIdx.x & 31;
    int s = __reduce_add_sync(FULL, v);
    if (lane == leader) out[i] = __popc(peers) + s;
    if (lane == 0) uniform_flag[i >> 5] = pred ? (int)allm : 0;
}

// half-warp work with __syncwarp on a partial mask, then a full-warp reduce
extern "C" __global__ void wi32_halfwarp_sync(int *buf, int *out)
{
    __shared__ int sh[256];
    int t = threadIdx.x;
    int lane = t & 31;
    sh[t] = buf[blockIdx.x * blockDim.x + t];
    __syncwarp();
    if (lane < 16) {
        sh[t] += sh[t + 16];
        __syncwarp(0x0000ffffu);
        int m = __reduce_min_sync(0x0000ffffu, sh[t]);
        sh[t] = m;
    }
    __syncwarp();
    int r = __reduce_add_sync(FULL, sh[t]);
    unsigned o = __reduce_or_sync(FULL, (unsigned)sh[t ^ 1]);
    if (lane == 0) out[t >> 5] = r ^ (int)o;
}

// all-equal check: uniform branch on __all_sync of a match result
extern "C" __global__ void wi32_all_equal(const int *keys, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int k = keys[i];
    int pred;
    __match_all_sync(FULL, k, &pred);
    if (__all_sync(FULL, pred)) {
        if ((threadIdx.x & 31) == 0) out[i >> 5] = k;
    } else {
        int mn = __reduce_min_sync(FULL, k);
        int mx = __reduce_max_sync(FULL, k);
        if ((threadIdx.x & 31) == 0) out[i >> 5] = mx - mn;
    }
}
