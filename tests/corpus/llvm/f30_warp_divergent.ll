; corpus: cpu=sm_90 features=+ptx80
; Fresh stop-30 kernels (helper llvm30): warp intrinsics under divergence and fences as front ends emit them.
; A tail-guarded warp sum (shfl.sync.bfly over the full mask inside a bounds check), a warp-aggregated append
; (activemask, ballot, popc, leader atomicrmw, shfl.idx broadcast of the base), a vote.any early-exit search
; loop, a flag handoff with a membar.gl/fence pair in a producer branch and a spin consumer, and a block-scope
; seq_cst atomic exchange lock with a bar.warp.sync after the critical section.
target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s_lock = internal addrspace(3) global i32 0, align 4
@s_acc = internal addrspace(3) global float 0.0, align 4

define ptx_kernel void @guarded_warp_sum(ptr addrspace(1) %x, ptr addrspace(1) %out, i32 %n) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %nt = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %m = mul i32 %bid, %nt
  %i = add i32 %m, %tid
  %ok = icmp slt i32 %i, %n
  br i1 %ok, label %ld, label %red

ld:
  %ie = sext i32 %i to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %x, i64 %ie
  %lv = load float, ptr addrspace(1) %p, align 4
  br label %red

red:
  %v0 = phi float [ %lv, %ld ], [ 0.0, %entry ]
  %s1 = tail call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %v0, i32 16, i32 31)
  %v1 = fadd float %v0, %s1
  %s2 = tail call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %v1, i32 8, i32 31)
  %v2 = fadd float %v1, %s2
  %s3 = tail call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %v2, i32 4, i32 31)
  %v3 = fadd float %v2, %s3
  %s4 = tail call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %v3, i32 2, i32 31)
  %v4 = fadd float %v3, %s4
  %s5 = tail call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %v4, i32 1, i32 31)
  %v5 = fadd float %v4, %s5
  %lane = and i32 %tid, 31
  %l0 = icmp eq i32 %lane, 0
  br i1 %l0, label %wr, label %exit

wr:
  %o = atomicrmw fadd ptr addrspace(1) %out, float %v5 syncscope("device") monotonic, align 4
  br label %exit

exit:
  ret void
}

define ptx_kernel void @warp_aggregated_append(ptr addrspace(1) %in, ptr addrspace(1) %outbuf, ptr addrspace(1) %cnt, i32 %n) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %nt = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %m = mul i32 %bid, %nt
  %i = add i32 %m, %tid
  %ok = icmp slt i32 %i, %n
  br i1 %ok, label %ld, label %exit

ld:
  %ie = sext i32 %i to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %ie
  %v = load i32, ptr addrspace(1) %p, align 4
  %pos = icmp sgt i32 %v, 0
  br i1 %pos, label %agg, label %exit

agg:
  %act = tail call i32 @llvm.nvvm.activemask()
  %lane = tail call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %lt = tail call i32 @llvm.nvvm.read.ptx.sreg.lanemask.lt()
  %leader = tail call i32 @llvm.cttz.i32(i32 %act, i1 true)
  %cnt1 = tail call i32 @llvm.ctpop.i32(i32 %act)
  %below = and i32 %act, %lt
  %rank = tail call i32 @llvm.ctpop.i32(i32 %below)
  %isl = icmp eq i32 %lane, %leader
  br i1 %isl, label %reserve, label %bcast

reserve:
  %b = atomicrmw add ptr addrspace(1) %cnt, i32 %cnt1 syncscope("device") monotonic, align 4
  br label %bcast

bcast:
  %bb = phi i32 [ %b, %reserve ], [ undef, %agg ]
  %base = tail call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 %act, i32 %bb, i32 %leader, i32 31)
  %slot = add i32 %base, %rank
  %se = sext i32 %slot to i64
  %po = getelementptr inbounds i32, ptr addrspace(1) %outbuf, i64 %se
  store i32 %v, ptr addrspace(1) %po, align 4
  br label %exit

exit:
  ret void
}

define ptx_kernel void @warp_search(ptr addrspace(1) %hay, ptr addrspace(1) %found, i32 %len, i32 %needle) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %lane = and i32 %tid, 31
  br label %loop

loop:
  %base = phi i32 [ 0, %entry ], [ %base2, %cont ]
  %i = add i32 %base, %lane
  %inb = icmp slt i32 %i, %len
  br i1 %inb, label %ld, label %vote

ld:
  %ie = sext i32 %i to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %hay, i64 %ie
  %v = load i32, ptr addrspace(1) %p, align 4
  %eq = icmp eq i32 %v, %needle
  br label %vote

vote:
  %hit = phi i1 [ %eq, %ld ], [ false, %loop ]
  %any = tail call i1 @llvm.nvvm.vote.any.sync(i32 -1, i1 %hit)
  br i1 %any, label %report, label %cont

cont:
  %base2 = add i32 %base, 32
  %more = icmp slt i32 %base2, %len
  br i1 %more, label %loop, label %exit

report:
  %bal = tail call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %hit)
  %first = tail call i32 @llvm.cttz.i32(i32 %bal, i1 true)
  %me = icmp eq i32 %lane, %first
  br i1 %me, label %store, label %exit

store:
  %o = atomicrmw min ptr addrspace(1) %found, i32 %i syncscope("device") monotonic, align 4
  br label %exit

exit:
  ret void
}

define ptx_kernel void @flag_handoff(ptr addrspace(1) %data, ptr addrspace(1) %flag, ptr addrspace(1) %out, i32 %v) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %b0 = icmp eq i32 %bid, 0
  %t0 = icmp eq i32 %tid, 0
  br i1 %b0, label %producer, label %consumer

producer:
  %te = zext i32 %tid to i64
  %pd = getelementptr inbounds i32, ptr addrspace(1) %data, i64 %te
  %vv = add i32 %v, %tid
  store i32 %vv, ptr addrspace(1) %pd, align 4
  tail call void @llvm.nvvm.membar.gl()
  tail call void @llvm.nvvm.barrier0()
  br i1 %t0, label %signal, label %exit

signal:
  store atomic i32 1, ptr addrspace(1) %flag syncscope("device") release, align 4
  br label %exit

consumer:
  br i1 %t0, label %spin, label %wait

spin:
  %f = load atomic i32, ptr addrspace(1) %flag syncscope("device") acquire, align 4
  %z = icmp eq i32 %f, 0
  br i1 %z, label %spin, label %wait

wait:
  tail call void @llvm.nvvm.barrier0()
  %te2 = zext i32 %tid to i64
  %pd2 = getelementptr inbounds i32, ptr addrspace(1) %data, i64 %te2
  %r = load volatile i32, ptr addrspace(1) %pd2, align 4
  %po = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %te2
  store i32 %r, ptr addrspace(1) %po, align 4
  br label %exit

exit:
  ret void
}

define ptx_kernel void @shared_lock_accumulate(ptr addrspace(1) %x, ptr addrspace(1) %out) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %te = zext i32 %tid to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %x, i64 %te
  %v = load float, ptr addrspace(1) %p, align 4
  %lane = and i32 %tid, 31
  %l0 = icmp eq i32 %lane, 0
  br i1 %l0, label %acquire, label %after

acquire:
  %old = atomicrmw xchg ptr addrspace(3) @s_lock, i32 1 syncscope("block") seq_cst, align 4
  %held = icmp ne i32 %old, 0
  br i1 %held, label %acquire, label %crit

crit:
  %a = load float, ptr addrspace(3) @s_acc, align 4
  %a2 = fadd float %a, %v
  store float %a2, ptr addrspace(3) @s_acc, align 4
  fence syncscope("block") release
  store atomic i32 0, ptr addrspace(3) @s_lock syncscope("block") monotonic, align 4
  br label %after

after:
  tail call void @llvm.nvvm.bar.warp.sync(i32 -1)
  tail call void @llvm.nvvm.barrier0()
  %t0 = icmp eq i32 %tid, 0
  br i1 %t0, label %wr, label %exit

wr:
  %r = load float, ptr addrspace(3) @s_acc, align 4
  store float %r, ptr addrspace(1) %out, align 4
  br label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.laneid()
declare i32 @llvm.nvvm.read.ptx.sreg.lanemask.lt()
declare i32 @llvm.nvvm.activemask()
declare i32 @llvm.cttz.i32(i32, i1)
declare i32 @llvm.ctpop.i32(i32)
declare float @llvm.nvvm.shfl.sync.bfly.f32(i32, float, i32, i32)
declare i32 @llvm.nvvm.shfl.sync.idx.i32(i32, i32, i32, i32)
declare i1 @llvm.nvvm.vote.any.sync(i32, i1)
declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1)
declare void @llvm.nvvm.membar.gl()
declare void @llvm.nvvm.barrier0()
declare void @llvm.nvvm.bar.warp.sync(i32)
