; corpus: cpu=sm_75 features=+ptx80
; Fresh stop-31 kernels (helper llvm31) compiled for sm_75 as clang/Julia emit pre-Hopper code:
; a cmpxchg spin lock (acquire) guarding a shared-memory bucket with a release store and fence,
; a decoupled-lookback-style flag publish (seq_cst fence + release store, acquire polling with
; vote.any exit), and a chunked block scan: shfl.up warp scan inside a loop with two barriers per chunk.
target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s_lock = internal addrspace(3) global i32 0, align 4
@s_bins = internal addrspace(3) global [64 x i32] zeroinitializer, align 4
@s_warp = internal addrspace(3) global [32 x i32] zeroinitializer, align 4

define ptx_kernel void @shared_spinlock_bins(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %n) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %nt = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %b = mul i32 %bid, %nt
  %gid = add i32 %b, %tid
  %inb = icmp slt i32 %gid, %n
  br i1 %inb, label %acq, label %sync

acq:
  %ge = sext i32 %gid to i64
  %pi = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %ge
  %v = load i32, ptr addrspace(1) %pi, align 4
  br label %try

try:
  %pair = cmpxchg ptr addrspace(3) @s_lock, i32 0, i32 1 syncscope("block") acquire monotonic, align 4
  %got = extractvalue { i32, i1 } %pair, 1
  br i1 %got, label %crit, label %try

crit:
  %bin = and i32 %v, 63
  %be = zext i32 %bin to i64
  %pb = getelementptr inbounds [64 x i32], ptr addrspace(3) @s_bins, i64 0, i64 %be
  %old = load i32, ptr addrspace(3) %pb, align 4
  %new = add i32 %old, %v
  store i32 %new, ptr addrspace(3) %pb, align 4
  fence syncscope("block") release
  store atomic i32 0, ptr addrspace(3) @s_lock syncscope("block") release, align 4
  br label %sync

sync:
  tail call void @llvm.nvvm.barrier0()
  %w = icmp ult i32 %tid, 64
  br i1 %w, label %flush, label %exit

flush:
  %te = zext i32 %tid to i64
  %ps = getelementptr inbounds [64 x i32], ptr addrspace(3) @s_bins, i64 0, i64 %te
  %sv = load i32, ptr addrspace(3) %ps, align 4
  %po = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %te
  %r = atomicrmw add ptr addrspace(1) %po, i32 %sv syncscope("device") monotonic, align 4
  br label %exit

exit:
  ret void
}

define ptx_kernel void @lookback_publish(ptr addrspace(1) %flags, ptr addrspace(1) %aggs, ptr addrspace(1) %in, i32 %n) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %be = zext i32 %bid to i64
  %ge = zext i32 %tid to i64
  %pi = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %ge
  %v = load i32, ptr addrspace(1) %pi, align 4
  %agg = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %v, i32 16, i32 31)
  %a1 = add i32 %v, %agg
  %t0 = icmp eq i32 %tid, 0
  br i1 %t0, label %pub, label %exit

pub:
  %pa = getelementptr inbounds i32, ptr addrspace(1) %aggs, i64 %be
  store i32 %a1, ptr addrspace(1) %pa, align 4
  fence syncscope("device") seq_cst
  %pf = getelementptr inbounds i32, ptr addrspace(1) %flags, i64 %be
  store atomic i32 1, ptr addrspace(1) %pf syncscope("device") release, align 4
  %first = icmp eq i32 %bid, 0
  br i1 %first, label %exit, label %look

look:
  %prev = add i32 %bid, -1
  %pe = zext i32 %prev to i64
  %pp = getelementptr inbounds i32, ptr addrspace(1) %flags, i64 %pe
  br label %poll

poll:
  %f = load atomic i32, ptr addrspace(1) %pp syncscope("device") acquire, align 4
  %ready = icmp ne i32 %f, 0
  %any = tail call i1 @llvm.nvvm.vote.any.sync(i32 1, i1 %ready)
  br i1 %any, label %done, label %poll

done:
  %ppa = getelementptr inbounds i32, ptr addrspace(1) %aggs, i64 %pe
  %pv = load i32, ptr addrspace(1) %ppa, align 4
  %tot = add i32 %pv, %a1
  store i32 %tot, ptr addrspace(1) %pa, align 4
  br label %exit

exit:
  ret void
}

define ptx_kernel void @chunked_block_scan(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %chunks) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %nt = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %lane = and i32 %tid, 31
  %wid = lshr i32 %tid, 5
  %c0 = icmp sgt i32 %chunks, 0
  br i1 %c0, label %loop, label %exit

loop:
  %c = phi i32 [ 0, %entry ], [ %cn, %loop_end ]
  %carry = phi i32 [ 0, %entry ], [ %carry2, %loop_end ]
  %off = mul i32 %c, %nt
  %idx = add i32 %off, %tid
  %ie = zext i32 %idx to i64
  %pi = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %ie
  %x = load i32, ptr addrspace(1) %pi, align 4
  br label %scan

scan:
  %d = phi i32 [ 1, %loop ], [ %d2, %scan ]
  %acc = phi i32 [ %x, %loop ], [ %acc2, %scan ]
  %up = tail call i32 @llvm.nvvm.shfl.sync.up.i32(i32 -1, i32 %acc, i32 %d, i32 0)
  %ok = icmp uge i32 %lane, %d
  %add = select i1 %ok, i32 %up, i32 0
  %acc2 = add i32 %acc, %add
  %d2 = shl i32 %d, 1
  %sd = icmp ult i32 %d2, 32
  br i1 %sd, label %scan, label %wtot

wtot:
  %last = icmp eq i32 %lane, 31
  br i1 %last, label %wst, label %b1

wst:
  %we = zext i32 %wid to i64
  %pw = getelementptr inbounds [32 x i32], ptr addrspace(3) @s_warp, i64 0, i64 %we
  store i32 %acc2, ptr addrspace(3) %pw, align 4
  br label %b1

b1:
  tail call void @llvm.nvvm.barrier0()
  %hasw = icmp ugt i32 %wid, 0
  br i1 %hasw, label %addw, label %emit

addw:
  %wm = add i32 %wid, -1
  %wme = zext i32 %wm to i64
  %pwm = getelementptr inbounds [32 x i32], ptr addrspace(3) @s_warp, i64 0, i64 %wme
  %wv = load i32, ptr addrspace(3) %pwm, align 4
  br label %emit

emit:
  %pre = phi i32 [ 0, %b1 ], [ %wv, %addw ]
  %r0 = add i32 %acc2, %pre
  %r = add i32 %r0, %carry
  %po = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %ie
  store i32 %r, ptr addrspace(1) %po, align 4
  tail call void @llvm.nvvm.barrier0()
  %lastt = add i32 %nt, -1
  %tot = tail call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %r, i32 31, i32 31)
  br label %loop_end

loop_end:
  %carry2 = add i32 %carry, %tot
  %cn = add i32 %c, 1
  %more = icmp slt i32 %cn, %chunks
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i1 @llvm.nvvm.vote.any.sync(i32, i1)
declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32)
declare i32 @llvm.nvvm.shfl.sync.up.i32(i32, i32, i32, i32)
declare i32 @llvm.nvvm.shfl.sync.idx.i32(i32, i32, i32, i32)
declare void @llvm.nvvm.barrier0()
