// corpus: -arch=sm_80
// Check kernels for the BREAK-nest rule, another style: templates, doubles, cooperative groups, switch
// statements, pointer chasing, do-while loops (helper nvreg38, stop 38).
#include <cooperative_groups.h>
#include <cstdint>
namespace cg = cooperative_groups;

template <typename T>
__device__ T newton_root(T a, T x0, T tol, int maxit, int &status)
{
    T x = x0;
    int it = 0;
    status = 0;
    do {
        T f = x * x * x - a;
        T df = T(3) * x * x;
        if (f > T(0)) {
            if (df < tol) { status = -1; break; }
            x -= f / df;
        } else {
            x += tol;
        }
    } while (++it < maxit);
    return x;
}

extern "C" __global__ void q38_check_newton_f64(const double *a, double *root, int *status, int n, int maxit)
{
    cg::thread_block blk = cg::this_thread_block();
    int i = blockIdx.x * blk.size() + blk.thread_rank();
    if (i < n) {
        int st;
        root[i] = newton_root<double>(a[i], 1.0, 1e-12, maxit, st);
        status[i] = st;
    }
}

// An op-code interpreter: a switch with a `continue` for no-ops and a `break` out of the loop on halt.
extern "C" __global__ void q38_check_interp(const uint8_t *code, const int *len, int *acc_out, int n)
{
    for (int t = blockIdx.x * blockDim.x + threadIdx.x; t < n; t += blockDim.x * gridDim.x) {
        const uint8_t *pc = code + t * 64;
        int acc = 0, steps = 0;
        bool halted = false;
        for (int k = 0; k < len[t]; ++k) {
            uint8_t op = pc[k];
            switch (op & 3) {
            case 0: continue;
            case 1: acc += op >> 2; break;
            case 2: acc *= 2; break;
            default:
                if (acc < 0) { halted = true; break; }
                acc -= op >> 2;
            }
            if (halted) break;
            ++steps;
        }
        acc_out[t] = halted ? -steps : acc;
    }
}

// A chained hash bucket walk: deleted nodes are skipped, a matching live node ends the walk.
extern "C" __global__ void q38_check_chain_walk(const int *head, const int *next, const unsigned *keys,
                                                const unsigned char *dead, const unsigned *q, int *found, int nq)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nq) return;
    unsigned k = q[t];
    int node = head[k & 1023], hit = -1, hops = 0;
    while (node >= 0 && hops < 32) {
        if (keys[node] == k) {
            if (dead[node]) { node = next[node]; ++hops; continue; }
            hit = node;
            break;
        }
        node = next[node];
        ++hops;
    }
    found[t] = hit;
}

// A half-precision clamp with a skip of flagged elements, in a cg tile-strided loop.
extern "C" __global__ void q38_check_tile_clamp(const float *x, const int *flag, float *y, int n, float lo, float hi)
{
    auto tile = cg::tiled_partition<32>(cg::this_thread_block());
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int base = warp * 256;
    for (int j = tile.thread_rank(); j < 256 && base + j < n; j += tile.size()) {
        float v = x[base + j];
        if (v < lo) {
            if (flag[base + j]) continue;
            v = lo;
        } else if (v > hi) {
            v = hi;
        }
        y[base + j] = v;
    }
}
