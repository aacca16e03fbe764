// corpus: -arch=sm_75
// Device-wide single-pass prefix sum the way cub::DeviceScan's agent does it: tile status in global memory
// (cub::ScanTileState, status+value packed in one 64-bit word), a tile-status init kernel, and a scan kernel with
// dynamic tile ids from an atomic counter, BlockLoad/BlockScan/BlockStore and cub::TilePrefixCallbackOp doing
// the decoupled look-back (warp-wide polling of predecessors with back-off, WarpReduce of the window).
#include <cub/agent/single_pass_scan_operators.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>

constexpr int THREADS = 128, ITEMS = 8, TILE = THREADS * ITEMS;
using TileState = cub::ScanTileState<int>;

extern "C" __global__ void single_pass_init_tiles(TileState state, int num_tiles, int *tile_counter)
{
    state.InitializeStatus(num_tiles);
    if (blockIdx.x == 0 && threadIdx.x == 0) *tile_counter = 0;
}

extern "C" __global__ void __launch_bounds__(THREADS)
single_pass_scan(const int *in, int *out, int n, TileState state, int *tile_counter)
{
    using Load = cub::BlockLoad<int, THREADS, ITEMS, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
    using Store = cub::BlockStore<int, THREADS, ITEMS, cub::BLOCK_STORE_WARP_TRANSPOSE>;
    using Scan = cub::BlockScan<int, THREADS, cub::BLOCK_SCAN_WARP_SCANS>;
    using Prefix = cub::TilePrefixCallbackOp<int, cuda::std::plus<>, TileState>;
    __shared__ union {
        typename Load::TempStorage load;
        typename Store::TempStorage store;
        struct { typename Scan::TempStorage scan; typename Prefix::TempStorage prefix; } s;
    } tmp;
    __shared__ int tile_id_sh;
    if (threadIdx.x == 0) tile_id_sh = atomicAdd(tile_counter, 1);
    __syncthreads();
    int tile = tile_id_sh;
    int base = tile * TILE;
    int valid = min(TILE, n - base);
    int items[ITEMS];
    if (valid == TILE) Load(tmp.load).Load(in + base, items);
    else Load(tmp.load).Load(in + base, items, valid, 0);
    __syncthreads();
    if (tile == 0) {
        int aggregate;
        Scan(tmp.s.scan).InclusiveSum(items, items, aggregate);
        if (threadIdx.x == 0) state.SetInclusive(0, aggregate);
    } else {
        Prefix prefix(state, tmp.s.prefix, cuda::std::plus<>{}, tile);
        Scan(tmp.s.scan).InclusiveSum(items, items, prefix);
    }
    __syncthreads();
    if (valid == TILE) Store(tmp.store).Store(out + base, items);
    else Store(tmp.store).Store(out + base, items, valid);
}
