; corpus: cpu=sm_80 features=+ptx90
; sm_80 cp.async pipelines: a 3-stage GEMV-style prologue / main loop / drain with cp.async.cg 16-byte copies
; whose src-size zero-fills the ragged edge (.s variants of cg.16, ca.8, ca.4), commit_group per stage,
; wait_group(1) in the loop and wait_group(0) / wait_all at the drain, a barrier per stage; and the generic-address
; mbarrier forms (init / arrive / arrive.noComplete / arrive.drop / arrive.drop.noComplete / test.wait / inval /
; pending.count) completing cp.async groups through cp.async.mbarrier.arrive(.noinc).
target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@stages = internal addrspace(3) global [3 x [512 x float]] undef, align 16
@vecbuf = internal addrspace(3) global [256 x float] undef, align 16
@bar = internal addrspace(3) global i64 undef, align 8

define ptx_kernel void @cp_async_multistage_gemv(ptr addrspace(1) noalias readonly %a, ptr addrspace(1) noalias readonly %x,
                                                 ptr addrspace(1) noalias %y, i32 %k) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %row = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %t64 = zext i32 %tid to i64
  %rowoff = mul i32 %row, %k
  %q = shl i32 %tid, 2
  %nk = add i32 %k, 511
  %nt = lshr i32 %nk, 9
  ; x vector tail copied in 8-byte and 4-byte pieces with zero fill
  %x8 = shl i32 %tid, 1
  %x8i = zext i32 %x8 to i64
  %px8 = getelementptr inbounds float, ptr addrspace(1) %x, i64 %x8i
  %sx8 = getelementptr inbounds [256 x float], ptr addrspace(3) @vecbuf, i64 0, i64 %x8i
  %rem8 = sub i32 %k, %x8
  %r8c = tail call i32 @llvm.smax.i32(i32 %rem8, i32 0)
  %r8m = tail call i32 @llvm.umin.i32(i32 %r8c, i32 2)
  %by8 = shl i32 %r8m, 2
  %lo = icmp ult i32 %tid, 64
  br i1 %lo, label %xcopy8, label %xcopy4

xcopy8:
  tail call void @llvm.nvvm.cp.async.ca.shared.global.8.s(ptr addrspace(3) %sx8, ptr addrspace(1) %px8, i32 %by8)
  br label %xdone

xcopy4:
  %x4 = add i32 %tid, 128
  %x4i = zext i32 %x4 to i64
  %px4 = getelementptr inbounds float, ptr addrspace(1) %x, i64 %x4i
  %sx4 = getelementptr inbounds [256 x float], ptr addrspace(3) @vecbuf, i64 0, i64 %x4i
  %in4 = icmp ult i32 %x4, %k
  %by4 = select i1 %in4, i32 4, i32 0
  tail call void @llvm.nvvm.cp.async.ca.shared.global.4.s(ptr addrspace(3) %sx4, ptr addrspace(1) %px4, i32 %by4)
  br label %xdone

xdone:
  tail call void @llvm.nvvm.cp.async.commit.group()
  ; prologue: stages 0 and 1
  br label %pro

pro:
  %ps = phi i32 [ 0, %xdone ], [ %ps1, %pro ]
  %base = shl i32 %ps, 9
  %col = add i32 %base, %q
  %rem = sub i32 %k, %col
  %remc = tail call i32 @llvm.smax.i32(i32 %rem, i32 0)
  %remm = tail call i32 @llvm.umin.i32(i32 %remc, i32 4)
  %bytes = shl i32 %remm, 2
  %ge = add i32 %rowoff, %col
  %ge64 = zext i32 %ge to i64
  %gp = getelementptr inbounds float, ptr addrspace(1) %a, i64 %ge64
  %ps64 = zext i32 %ps to i64
  %q64 = zext i32 %q to i64
  %sp = getelementptr inbounds [3 x [512 x float]], ptr addrspace(3) @stages, i64 0, i64 %ps64, i64 %q64
  tail call void @llvm.nvvm.cp.async.cg.shared.global.16.s(ptr addrspace(3) %sp, ptr addrspace(1) %gp, i32 %bytes)
  tail call void @llvm.nvvm.cp.async.commit.group()
  %ps1 = add nuw nsw i32 %ps, 1
  %pd = icmp eq i32 %ps1, 2
  br i1 %pd, label %main, label %pro

main:
  %t = phi i32 [ 0, %pro ], [ %t1, %compute ]
  %acc = phi float [ 0.0, %pro ], [ %acc2, %compute ]
  tail call void @llvm.nvvm.cp.async.wait.group(i32 1)
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %nx = add i32 %t, 2
  %issue = icmp ult i32 %nx, %nt
  br i1 %issue, label %fetch, label %nofetch

fetch:
  %fs = urem i32 %nx, 3
  %fb = shl i32 %nx, 9
  %fcol = add i32 %fb, %q
  %frem = sub i32 %k, %fcol
  %frc = tail call i32 @llvm.smax.i32(i32 %frem, i32 0)
  %frm = tail call i32 @llvm.umin.i32(i32 %frc, i32 4)
  %fby = shl i32 %frm, 2
  %fge = add i32 %rowoff, %fcol
  %fge64 = zext i32 %fge to i64
  %fgp = getelementptr inbounds float, ptr addrspace(1) %a, i64 %fge64
  %fs64 = zext i32 %fs to i64
  %fq64 = zext i32 %q to i64
  %fsp = getelementptr inbounds [3 x [512 x float]], ptr addrspace(3) @stages, i64 0, i64 %fs64, i64 %fq64
  tail call void @llvm.nvvm.cp.async.cg.shared.global.16.s(ptr addrspace(3) %fsp, ptr addrspace(1) %fgp, i32 %fby)
  br label %nofetch

nofetch:
  tail call void @llvm.nvvm.cp.async.commit.group()
  %cs = urem i32 %t, 3
  %cs64 = zext i32 %cs to i64
  %pa = getelementptr inbounds [3 x [512 x float]], ptr addrspace(3) @stages, i64 0, i64 %cs64, i64 %t64
  %av = load float, ptr addrspace(3) %pa, align 4
  %xi = and i64 %t64, 255
  %px = getelementptr inbounds [256 x float], ptr addrspace(3) @vecbuf, i64 0, i64 %xi
  %xv = load float, ptr addrspace(3) %px, align 4
  %acc1 = tail call float @llvm.fma.f32(float %av, float %xv, float %acc)
  br label %compute

compute:
  %acc2 = phi float [ %acc1, %nofetch ]
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %t1 = add nuw i32 %t, 1
  %more = icmp ult i32 %t1, %nt
  br i1 %more, label %main, label %drain

drain:
  tail call void @llvm.nvvm.cp.async.wait.group(i32 0)
  tail call void @llvm.nvvm.cp.async.wait.all()
  %r = tail call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %acc2, i32 16, i32 31)
  %s = fadd float %acc2, %r
  %l0 = icmp eq i32 %tid, 0
  br i1 %l0, label %wr, label %exit

wr:
  %r64 = zext i32 %row to i64
  %py = getelementptr inbounds float, ptr addrspace(1) %y, i64 %r64
  store float %s, ptr addrspace(1) %py, align 4
  br label %exit

exit:
  ret void
}

define ptx_kernel void @mbarrier_generic_cp_async(ptr addrspace(1) noalias readonly %in, ptr addrspace(1) noalias %out, i32 %leave) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ntid = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %t64 = zext i32 %tid to i64
  %gbar = addrspacecast ptr addrspace(3) @bar to ptr
  %t0 = icmp eq i32 %tid, 0
  br i1 %t0, label %init, label %go

init:
  tail call void @llvm.nvvm.mbarrier.init(ptr %gbar, i32 %ntid)
  br label %go

go:
  tail call void @llvm.nvvm.barrier0()
  %early = icmp uge i32 %tid, %leave
  br i1 %early, label %dropout, label %work

dropout:
  ; threads past %leave stop participating in later phases
  %dt = tail call i64 @llvm.nvvm.mbarrier.arrive.drop(ptr %gbar)
  br label %fin

work:
  %src = getelementptr inbounds float, ptr addrspace(1) %in, i64 %t64
  %dst = getelementptr inbounds [256 x float], ptr addrspace(3) @vecbuf, i64 0, i64 %t64
  tail call void @llvm.nvvm.cp.async.ca.shared.global.4(ptr addrspace(3) %dst, ptr addrspace(1) %src)
  tail call void @llvm.nvvm.cp.async.mbarrier.arrive(ptr %gbar)
  %st = tail call i64 @llvm.nvvm.mbarrier.arrive(ptr %gbar)
  br label %poll

poll:
  %done = tail call i1 @llvm.nvvm.mbarrier.test.wait(ptr %gbar, i64 %st)
  br i1 %done, label %use, label %backoff

backoff:
  tail call void @llvm.nvvm.nanosleep(i32 32)
  br label %poll

use:
  %rev = sub i64 255, %t64
  %pr = getelementptr inbounds [256 x float], ptr addrspace(3) @vecbuf, i64 0, i64 %rev
  %v = load float, ptr addrspace(3) %pr, align 4
  %po = getelementptr inbounds float, ptr addrspace(1) %out, i64 %t64
  store float %v, ptr addrspace(1) %po, align 4
  ; next phase: noinc arrival balanced by arrive.noComplete, then this thread drops out too
  tail call void @llvm.nvvm.cp.async.ca.shared.global.4(ptr addrspace(3) %dst, ptr addrspace(1) %src)
  tail call void @llvm.nvvm.cp.async.mbarrier.arrive.noinc(ptr %gbar)
  %st2 = tail call i64 @llvm.nvvm.mbarrier.arrive.noComplete(ptr %gbar, i32 1)
  %pc = tail call i32 @llvm.nvvm.mbarrier.pending.count(i64 %st2)
  %st3 = tail call i64 @llvm.nvvm.mbarrier.arrive.drop.noComplete(ptr %gbar, i32 1)
  %o2 = add i64 %t64, 256
  %po2 = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %o2
  store i32 %pc, ptr addrspace(1) %po2, align 4
  br label %fin

fin:
  tail call void @llvm.nvvm.barrier0()
  br i1 %t0, label %inval, label %exit

inval:
  tail call void @llvm.nvvm.mbarrier.inval(ptr %gbar)
  br label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier0()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
declare void @llvm.nvvm.nanosleep(i32)
declare i32 @llvm.smax.i32(i32, i32)
declare i32 @llvm.umin.i32(i32, i32)
declare float @llvm.fma.f32(float, float, float)
declare float @llvm.nvvm.shfl.sync.bfly.f32(i32, float, i32, i32)
declare void @llvm.nvvm.cp.async.ca.shared.global.4(ptr addrspace(3), ptr addrspace(1))
declare void @llvm.nvvm.cp.async.ca.shared.global.4.s(ptr addrspace(3), ptr addrspace(1), i32)
declare void @llvm.nvvm.cp.async.ca.shared.global.8.s(ptr addrspace(3), ptr addrspace(1), i32)
declare void @llvm.nvvm.cp.async.cg.shared.global.16.s(ptr addrspace(3), ptr addrspace(1), i32)
declare void @llvm.nvvm.cp.async.commit.group()
declare void @llvm.nvvm.cp.async.wait.group(i32 immarg)
declare void @llvm.nvvm.cp.async.wait.all()
declare void @llvm.nvvm.cp.async.mbarrier.arrive(ptr)
declare void @llvm.nvvm.cp.async.mbarrier.arrive.noinc(ptr)
declare void @llvm.nvvm.mbarrier.init(ptr, i32)
declare i64 @llvm.nvvm.mbarrier.arrive(ptr)
declare i64 @llvm.nvvm.mbarrier.arrive.drop(ptr)
declare i64 @llvm.nvvm.mbarrier.arrive.noComplete(ptr, i32)
declare i64 @llvm.nvvm.mbarrier.arrive.drop.noComplete(ptr, i32)
declare i1 @llvm.nvvm.mbarrier.test.wait(ptr, i64)
declare void @llvm.nvvm.mbarrier.inval(ptr)
declare i32 @llvm.nvvm.mbarrier.pending.count(i64)
