; corpus: cpu=sm_90 features=+ptx80
; Fresh stop-31 kernels (helper llvm31), written as clang/Triton/Julia emit them for NVPTX:
; a clang-style cmpxchg loop for a float atomic max inside a grid-stride loop, a ticket lock
; (acquire fetch-add, acquire polling load, release store) around a critical section, a divergent
; ballot-based stream compaction with a leader atomic and shfl broadcast, a shared-memory tree
; reduction with a barrier in its loop finished by redux.sync, and a match.any key aggregation in a loop.
target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s_red = internal addrspace(3) global [256 x i32] zeroinitializer, align 4

define ptx_kernel void @cas_fmax_gridstride(ptr addrspace(1) %x, ptr addrspace(1) %res, i32 %n) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %nt = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %nc = tail call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %b = mul i32 %bid, %nt
  %i0 = add i32 %b, %tid
  %stride = mul i32 %nt, %nc
  %c0 = icmp slt i32 %i0, %n
  br i1 %c0, label %loop, label %exit

loop:
  %i = phi i32 [ %i0, %entry ], [ %inext, %latch ]
  %ie = sext i32 %i to i64
  %px = getelementptr inbounds float, ptr addrspace(1) %x, i64 %ie
  %v = load float, ptr addrspace(1) %px, align 4
  %old0 = load i32, ptr addrspace(1) %res, align 4
  br label %cas

cas:
  %old = phi i32 [ %old0, %loop ], [ %seen, %cas ]
  %oldf = bitcast i32 %old to float
  %gt = fcmp ogt float %v, %oldf
  %mx = select i1 %gt, float %v, float %oldf
  %mxi = bitcast float %mx to i32
  %pair = cmpxchg ptr addrspace(1) %res, i32 %old, i32 %mxi syncscope("device") monotonic monotonic, align 4
  %seen = extractvalue { i32, i1 } %pair, 0
  %ok = extractvalue { i32, i1 } %pair, 1
  br i1 %ok, label %latch, label %cas

latch:
  %inext = add i32 %i, %stride
  %c = icmp slt i32 %inext, %n
  br i1 %c, label %loop, label %exit

exit:
  ret void
}

define ptx_kernel void @ticket_lock_update(ptr addrspace(1) %ticket, ptr addrspace(1) %serving, ptr addrspace(1) %table, ptr addrspace(1) %keys, i32 %n) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %nt = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %b = mul i32 %bid, %nt
  %gid = add i32 %b, %tid
  %c0 = icmp slt i32 %gid, %n
  br i1 %c0, label %take, label %exit

take:
  %my = atomicrmw add ptr addrspace(1) %ticket, i32 1 syncscope("device") acquire, align 4
  br label %spin

spin:
  %now = load atomic i32, ptr addrspace(1) %serving syncscope("device") acquire, align 4
  %mine = icmp eq i32 %now, %my
  br i1 %mine, label %crit, label %backoff

backoff:
  tail call void @llvm.nvvm.nanosleep(i32 32)
  br label %spin

crit:
  %ge = sext i32 %gid to i64
  %pk = getelementptr inbounds i32, ptr addrspace(1) %keys, i64 %ge
  %k = load i32, ptr addrspace(1) %pk, align 4
  %slot = and i32 %k, 1023
  %se = zext i32 %slot to i64
  %pt = getelementptr inbounds i32, ptr addrspace(1) %table, i64 %se
  %tv = load i32, ptr addrspace(1) %pt, align 4
  %tv2 = add i32 %tv, %k
  store i32 %tv2, ptr addrspace(1) %pt, align 4
  %nx = add i32 %my, 1
  store atomic i32 %nx, ptr addrspace(1) %serving syncscope("device") release, align 4
  br label %exit

exit:
  ret void
}

define ptx_kernel void @ballot_compact(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr addrspace(1) %count, i32 %n, i32 %thresh) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %nt = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %b = mul i32 %bid, %nt
  %gid = add i32 %b, %tid
  %inb = icmp slt i32 %gid, %n
  br i1 %inb, label %body, label %exit

body:
  %ge = sext i32 %gid to i64
  %pi = getelementptr inbounds float, ptr addrspace(1) %in, i64 %ge
  %v = load float, ptr addrspace(1) %pi, align 4
  %tf = sitofp i32 %thresh to float
  %keep = fcmp ogt float %v, %tf
  %act = tail call i32 @llvm.nvvm.activemask()
  %bal = tail call i32 @llvm.nvvm.vote.ballot.sync(i32 %act, i1 %keep)
  %lt = tail call i32 @llvm.nvvm.read.ptx.sreg.lanemask.lt()
  %below = and i32 %bal, %lt
  %rank = tail call i32 @llvm.ctpop.i32(i32 %below)
  %total = tail call i32 @llvm.ctpop.i32(i32 %bal)
  %leader = tail call i32 @llvm.cttz.i32(i32 %act, i1 true)
  %lane = tail call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %isl = icmp eq i32 %lane, %leader
  %nz = icmp ne i32 %total, 0
  %doit = and i1 %isl, %nz
  br i1 %doit, label %reserve, label %bcast

reserve:
  %base0 = atomicrmw add ptr addrspace(1) %count, i32 %total syncscope("device") monotonic, align 4
  br label %bcast

bcast:
  %bb = phi i32 [ 0, %body ], [ %base0, %reserve ]
  %base = tail call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 %act, i32 %bb, i32 %leader, i32 31)
  br i1 %keep, label %write, label %exit

write:
  %pos = add i32 %base, %rank
  %pe = sext i32 %pos to i64
  %po = getelementptr inbounds float, ptr addrspace(1) %out, i64 %pe
  store float %v, ptr addrspace(1) %po, align 4
  br label %exit

exit:
  ret void
}

define ptx_kernel void @tree_reduce_redux(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %n) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %nt = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %b = mul i32 %bid, %nt
  %gid = add i32 %b, %tid
  %inb = icmp slt i32 %gid, %n
  %ge = sext i32 %gid to i64
  %pi = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %ge
  br i1 %inb, label %ld, label %st

ld:
  %v0 = load i32, ptr addrspace(1) %pi, align 4
  br label %st

st:
  %v = phi i32 [ 0, %entry ], [ %v0, %ld ]
  %te = zext i32 %tid to i64
  %ps = getelementptr inbounds [256 x i32], ptr addrspace(3) @s_red, i64 0, i64 %te
  store i32 %v, ptr addrspace(3) %ps, align 4
  tail call void @llvm.nvvm.barrier0()
  %half0 = lshr i32 %nt, 1
  %big = icmp ugt i32 %half0, 32
  br i1 %big, label %tree, label %warp

tree:
  %s = phi i32 [ %half0, %st ], [ %s2, %tlatch ]
  %act = icmp ult i32 %tid, %s
  br i1 %act, label %add, label %tlatch

add:
  %o = add i32 %tid, %s
  %oe = zext i32 %o to i64
  %po = getelementptr inbounds [256 x i32], ptr addrspace(3) @s_red, i64 0, i64 %oe
  %a = load i32, ptr addrspace(3) %po, align 4
  %m = load i32, ptr addrspace(3) %ps, align 4
  %sum = add i32 %a, %m
  store i32 %sum, ptr addrspace(3) %ps, align 4
  br label %tlatch

tlatch:
  tail call void @llvm.nvvm.barrier0()
  %s2 = lshr i32 %s, 1
  %more = icmp ugt i32 %s2, 32
  br i1 %more, label %tree, label %warp

warp:
  %w0 = icmp ult i32 %tid, 32
  br i1 %w0, label %fin, label %exit

fin:
  %x = load i32, ptr addrspace(3) %ps, align 4
  %o32 = add i32 %tid, 32
  %o32e = zext i32 %o32 to i64
  %p32 = getelementptr inbounds [256 x i32], ptr addrspace(3) @s_red, i64 0, i64 %o32e
  %y = load i32, ptr addrspace(3) %p32, align 4
  %xy = add i32 %x, %y
  %r = tail call i32 @llvm.nvvm.redux.sync.add(i32 %xy, i32 -1)
  %t0 = icmp eq i32 %tid, 0
  br i1 %t0, label %wr, label %exit

wr:
  %be = zext i32 %bid to i64
  %pout = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %be
  store i32 %r, ptr addrspace(1) %pout, align 4
  br label %exit

exit:
  ret void
}

define ptx_kernel void @match_key_histogram(ptr addrspace(1) %keys, ptr addrspace(1) %hist, i32 %n) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %nt = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %nc = tail call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %b = mul i32 %bid, %nt
  %i0 = add i32 %b, %tid
  %stride = mul i32 %nt, %nc
  %lane = tail call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %c0 = icmp slt i32 %i0, %n
  br i1 %c0, label %loop, label %exit

loop:
  %i = phi i32 [ %i0, %entry ], [ %inext, %latch ]
  %ie = sext i32 %i to i64
  %pk = getelementptr inbounds i32, ptr addrspace(1) %keys, i64 %ie
  %k = load i32, ptr addrspace(1) %pk, align 4
  %bin = and i32 %k, 63
  %act = tail call i32 @llvm.nvvm.activemask()
  %peers = tail call i32 @llvm.nvvm.match.any.sync.i32(i32 %act, i32 %bin)
  %lead = tail call i32 @llvm.cttz.i32(i32 %peers, i1 true)
  %isl = icmp eq i32 %lane, %lead
  br i1 %isl, label %bump, label %latch

bump:
  %cnt = tail call i32 @llvm.ctpop.i32(i32 %peers)
  %be = zext i32 %bin to i64
  %ph = getelementptr inbounds i32, ptr addrspace(1) %hist, i64 %be
  %old = atomicrmw add ptr addrspace(1) %ph, i32 %cnt syncscope("device") monotonic, align 4
  br label %latch

latch:
  %inext = add i32 %i, %stride
  %c = icmp slt i32 %inext, %n
  br i1 %c, label %loop, label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.laneid()
declare i32 @llvm.nvvm.read.ptx.sreg.lanemask.lt()
declare i32 @llvm.nvvm.activemask()
declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1)
declare i32 @llvm.nvvm.shfl.sync.idx.i32(i32, i32, i32, i32)
declare i32 @llvm.nvvm.match.any.sync.i32(i32, i32)
declare i32 @llvm.nvvm.redux.sync.add(i32, i32)
declare void @llvm.nvvm.barrier0()
declare void @llvm.nvvm.nanosleep(i32)
declare i32 @llvm.ctpop.i32(i32)
declare i32 @llvm.cttz.i32(i32, i1)
