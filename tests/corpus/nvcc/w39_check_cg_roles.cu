// corpus: -arch=sm_80
// Check kernels (another style): cooperative-groups roles (thread_block / tiled_partition meta_group_rank) for a
// double-buffered hand-off over raw `barrier.sync.aligned` / `barrier.arrive.aligned` PTX with a parity id, a do-while
// consumer and a reduction of the consumer tile with cg::reduce.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__device__ __forceinline__ void bsync(unsigned id, unsigned n) { asm volatile("barrier.sync.aligned %0, %1;" :: "r"(id), "r"(n) : "memory"); }
__device__ __forceinline__ void barrive(unsigned id, unsigned n) { asm volatile("barrier.arrive.aligned %0, %1;" :: "r"(id), "r"(n) : "memory"); }

extern "C" __global__ void __launch_bounds__(64) w39_check_cg_double(const unsigned *in, unsigned *out, unsigned rounds)
{
    __shared__ unsigned buf[2][32];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    if (warp.meta_group_rank() == 0) {
        for (unsigned r = 0; r < rounds; ++r) {
            const unsigned par = r & 1u;
            if (r > 1) bsync(3 + par, 64);
            buf[par][warp.thread_rank()] = in[r * 32 + warp.thread_rank()] ^ r;
            barrive(1 + par, 64);
        }
    } else {
        unsigned total = 0, r = 0;
        if (rounds > 0) do {
            const unsigned par = r & 1u;
            bsync(1 + par, 64);
            unsigned v = buf[par][warp.thread_rank()];
            total += cg::reduce(warp, v, cg::plus<unsigned>());
            if (r + 2 < rounds) barrive(3 + par, 64);
        } while (++r < rounds);
        if (warp.thread_rank() == 0) out[blockIdx.x] = total;
    }
}
