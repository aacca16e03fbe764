; corpus: cpu=sm_75 features=+ptx90
; Block-wide barrier reductions in loops, as CUDA.jl (sync_threads_or / sync_threads_count) and hand-lowered MLIR
; produce them: a label-propagation sweep that repeats while any thread changed something (barrier0.or at the loop
; bottom), a bitonic-style stage loop with barrier0 inside an if/else, early-out search with barrier0.popc as a
; block count, barrier.cta.red.and on a named barrier with a thread count for a two-group producer/consumer, and
; barrier.sync/barrier.sync.cnt on named barriers inside a loop.
target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@labels = internal addrspace(3) global [1024 x i32] undef, align 4
@keys = internal addrspace(3) global [512 x i32] undef, align 4

define ptx_kernel void @label_propagation(ptr addrspace(1) %adj, ptr addrspace(1) %out, i32 %deg, i32 %maxit) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %te = zext i32 %tid to i64
  %pl = getelementptr inbounds [1024 x i32], ptr addrspace(3) @labels, i64 0, i64 %te
  store i32 %tid, ptr addrspace(3) %pl, align 4
  tail call void @llvm.nvvm.barrier0()
  br label %sweep

sweep:
  %it = phi i32 [ 0, %entry ], [ %it1, %sweep.end ]
  %mine = load i32, ptr addrspace(3) %pl, align 4
  %hasn = icmp sgt i32 %deg, 0
  br i1 %hasn, label %nb, label %sweep.end0

nb:
  %j = phi i32 [ 0, %sweep ], [ %j1, %nb.next ]
  %best = phi i32 [ %mine, %sweep ], [ %best2, %nb.next ]
  %row = mul i32 %tid, %deg
  %idx = add i32 %row, %j
  %ie = zext i32 %idx to i64
  %pa = getelementptr inbounds i32, ptr addrspace(1) %adj, i64 %ie
  %nbr = load i32, ptr addrspace(1) %pa, align 4
  %valid = icmp sge i32 %nbr, 0
  br i1 %valid, label %nb.look, label %nb.next

nb.look:
  %ne = zext i32 %nbr to i64
  %pn = getelementptr inbounds [1024 x i32], ptr addrspace(3) @labels, i64 0, i64 %ne
  %ln = load i32, ptr addrspace(3) %pn, align 4
  %mn = tail call i32 @llvm.umin.i32(i32 %ln, i32 %best)
  br label %nb.next

nb.next:
  %best2 = phi i32 [ %mn, %nb.look ], [ %best, %nb ]
  %j1 = add nuw nsw i32 %j, 1
  %jm = icmp slt i32 %j1, %deg
  br i1 %jm, label %nb, label %sweep.end0

sweep.end0:
  %newl = phi i32 [ %mine, %sweep ], [ %best2, %nb.next ]
  tail call void @llvm.nvvm.barrier0()
  %chg = icmp ne i32 %newl, %mine
  br i1 %chg, label %write, label %sweep.end

write:
  store i32 %newl, ptr addrspace(3) %pl, align 4
  br label %sweep.end

sweep.end:
  %chz = zext i1 %chg to i32
  %anych = tail call i32 @llvm.nvvm.barrier0.or(i32 %chz)
  %it1 = add nuw nsw i32 %it, 1
  %go = icmp ne i32 %anych, 0
  %lim = icmp slt i32 %it1, %maxit
  %again = and i1 %go, %lim
  br i1 %again, label %sweep, label %fin

fin:
  %fl = load i32, ptr addrspace(3) %pl, align 4
  %po = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %te
  store i32 %fl, ptr addrspace(1) %po, align 4
  ret void
}

define ptx_kernel void @bitonic_block_sort(ptr addrspace(1) %data) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %base = shl i32 %bid, 9
  %gi = add i32 %base, %tid
  %ge = zext i32 %gi to i64
  %pg = getelementptr inbounds i32, ptr addrspace(1) %data, i64 %ge
  %v = load i32, ptr addrspace(1) %pg, align 4
  %te = zext i32 %tid to i64
  %pk = getelementptr inbounds [512 x i32], ptr addrspace(3) @keys, i64 0, i64 %te
  store i32 %v, ptr addrspace(3) %pk, align 4
  tail call void @llvm.nvvm.barrier0()
  br label %kloop

kloop:
  %k = phi i32 [ 2, %entry ], [ %k2, %kend ]
  %j0 = lshr i32 %k, 1
  br label %jloop

jloop:
  %j = phi i32 [ %j0, %kloop ], [ %jn, %jend ]
  %ixj = xor i32 %tid, %j
  %up = icmp ugt i32 %ixj, %tid
  br i1 %up, label %cmp, label %jend

cmp:
  %xe = zext i32 %ixj to i64
  %px = getelementptr inbounds [512 x i32], ptr addrspace(3) @keys, i64 0, i64 %xe
  %a = load i32, ptr addrspace(3) %pk, align 4
  %b = load i32, ptr addrspace(3) %px, align 4
  %dirb = and i32 %tid, %k
  %asc = icmp eq i32 %dirb, 0
  br i1 %asc, label %ascb, label %descb

ascb:
  %sw1 = icmp sgt i32 %a, %b
  br i1 %sw1, label %swap, label %jend

descb:
  %sw2 = icmp slt i32 %a, %b
  br i1 %sw2, label %swap, label %jend

swap:
  store i32 %b, ptr addrspace(3) %pk, align 4
  store i32 %a, ptr addrspace(3) %px, align 4
  br label %jend

jend:
  tail call void @llvm.nvvm.barrier0()
  %jn = lshr i32 %j, 1
  %jmore = icmp ne i32 %jn, 0
  br i1 %jmore, label %jloop, label %kend

kend:
  %k2 = shl i32 %k, 1
  %kmore = icmp ule i32 %k2, 512
  br i1 %kmore, label %kloop, label %store

store:
  %r = load i32, ptr addrspace(3) %pk, align 4
  store i32 %r, ptr addrspace(1) %pg, align 4
  ret void
}

define ptx_kernel void @count_until_found(ptr addrspace(1) %xs, ptr addrspace(1) %res, i32 %needle, i32 %n) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ntid = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  br label %chunk

chunk:
  %base = phi i32 [ 0, %entry ], [ %base2, %cont ]
  %total = phi i32 [ 0, %entry ], [ %total2, %cont ]
  %i = add i32 %base, %tid
  %inr = icmp slt i32 %i, %n
  br i1 %inr, label %ld, label %vote

ld:
  %ie = sext i32 %i to i64
  %px = getelementptr inbounds i32, ptr addrspace(1) %xs, i64 %ie
  %x = load i32, ptr addrspace(1) %px, align 4
  %hit = icmp eq i32 %x, %needle
  br label %vote

vote:
  %h = phi i1 [ %hit, %ld ], [ false, %chunk ]
  %hz = zext i1 %h to i32
  %cnt = tail call i32 @llvm.nvvm.barrier0.popc(i32 %hz)
  %total2 = add i32 %total, %cnt
  %base2 = add i32 %base, %ntid
  %found = icmp ne i32 %cnt, 0
  %past = icmp sge i32 %base2, %n
  %stop = or i1 %found, %past
  br i1 %stop, label %out, label %cont

cont:
  br label %chunk

out:
  %alln = tail call i32 @llvm.nvvm.barrier0.and(i32 %total2)
  %t0 = icmp eq i32 %tid, 0
  br i1 %t0, label %w, label %e

w:
  store i32 %total2, ptr addrspace(1) %res, align 4
  %pr = getelementptr inbounds i32, ptr addrspace(1) %res, i64 1
  store i32 %alln, ptr addrspace(1) %pr, align 4
  br label %e

e:
  ret void
}

define ptx_kernel void @named_producer_consumer(ptr addrspace(1) %src, ptr addrspace(1) %dst, i32 %tiles) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %te = zext i32 %tid to i64
  %prod = icmp ult i32 %tid, 64
  %any = icmp sgt i32 %tiles, 0
  br i1 %any, label %tile, label %exit

tile:
  %t = phi i32 [ 0, %entry ], [ %t1, %tile.end ]
  br i1 %prod, label %produce, label %consume

produce:
  %off = shl i32 %t, 6
  %oi = add i32 %off, %tid
  %oe = zext i32 %oi to i64
  %ps = getelementptr inbounds i32, ptr addrspace(1) %src, i64 %oe
  %v = load i32, ptr addrspace(1) %ps, align 4
  %pk = getelementptr inbounds [512 x i32], ptr addrspace(3) @keys, i64 0, i64 %te
  store i32 %v, ptr addrspace(3) %pk, align 4
  tail call void @llvm.nvvm.barrier.cta.arrive.aligned.count(i32 1, i32 128)
  %ok = tail call i1 @llvm.nvvm.barrier.cta.red.and.aligned.count(i32 2, i32 64, i1 true)
  br label %tile.end

consume:
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.count(i32 1, i32 128)
  %ct = sub i32 %tid, 64
  %ce = zext i32 %ct to i64
  %pc = getelementptr inbounds [512 x i32], ptr addrspace(3) @keys, i64 0, i64 %ce
  %w = load i32, ptr addrspace(3) %pc, align 4
  %w2 = mul i32 %w, 3
  %off2 = shl i32 %t, 6
  %di = add i32 %off2, %ct
  %de = zext i32 %di to i64
  %pd = getelementptr inbounds i32, ptr addrspace(1) %dst, i64 %de
  store i32 %w2, ptr addrspace(1) %pd, align 4
  tail call void @llvm.nvvm.barrier.sync.cnt(i32 3, i32 64)
  br label %tile.end

tile.end:
  %t1 = add nuw nsw i32 %t, 1
  %more = icmp slt i32 %t1, %tiles
  br i1 %more, label %tile, label %exit

exit:
  tail call void @llvm.nvvm.barrier.sync(i32 0)
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier0()
declare i32 @llvm.nvvm.barrier0.or(i32)
declare i32 @llvm.nvvm.barrier0.and(i32)
declare i32 @llvm.nvvm.barrier0.popc(i32)
declare void @llvm.nvvm.barrier.cta.arrive.aligned.count(i32, i32)
declare void @llvm.nvvm.barrier.cta.sync.aligned.count(i32, i32)
declare i1 @llvm.nvvm.barrier.cta.red.and.aligned.count(i32, i32, i1)
declare void @llvm.nvvm.barrier.sync.cnt(i32, i32)
declare void @llvm.nvvm.barrier.sync(i32)
declare i32 @llvm.umin.i32(i32, i32)
