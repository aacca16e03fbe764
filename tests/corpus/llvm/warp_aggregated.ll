; corpus: cpu=sm_75 features=+ptx90
; Cooperative-groups style warp code as clang emits it: warp-aggregated atomic increment (activemask, leader by
; cttz, popc of lanemask_lt, shfl.sync.idx broadcast of the base) inside a divergent filter; __syncwarp between
; phases of a per-warp shared-memory transpose in a loop; a coalesced-group reduction with a ballot-computed mask.
target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@wtile = internal addrspace(3) global [8 x [32 x [33 x float]]] undef, align 4

define ptx_kernel void @warp_aggregated_filter(ptr addrspace(1) noalias readonly %in, ptr addrspace(1) noalias %out,
                                               ptr addrspace(1) noalias %count, i32 %n) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %b = mul i32 %ctaid, %ntid
  %gi = add i32 %b, %tid
  %oob = icmp sge i32 %gi, %n
  br i1 %oob, label %exit, label %body

body:
  %gi64 = sext i32 %gi to i64
  %pin = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %gi64
  %x = load i32, ptr addrspace(1) %pin, align 4
  %pos = icmp sgt i32 %x, 0
  br i1 %pos, label %agg, label %exit

agg:
  %mask = tail call i32 @llvm.nvvm.activemask()
  %leader = tail call i32 @llvm.cttz.i32(i32 %mask, i1 true)
  %lane = tail call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %ltm = tail call i32 @llvm.nvvm.read.ptx.sreg.lanemask.lt()
  %cnt = tail call i32 @llvm.ctpop.i32(i32 %mask)
  %below = and i32 %mask, %ltm
  %rank = tail call i32 @llvm.ctpop.i32(i32 %below)
  %isl = icmp eq i32 %lane, %leader
  br i1 %isl, label %lead, label %bcast

lead:
  %old = atomicrmw add ptr addrspace(1) %count, i32 %cnt monotonic, align 4
  br label %bcast

bcast:
  %o = phi i32 [ %old, %lead ], [ undef, %agg ]
  %base = tail call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 %mask, i32 %o, i32 %leader, i32 31)
  %slot = add i32 %base, %rank
  %slot64 = sext i32 %slot to i64
  %po = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %slot64
  store i32 %x, ptr addrspace(1) %po, align 4
  br label %exit

exit:
  ret void
}

; each warp transposes 32x32 tiles through its own padded shared tile; __syncwarp() between phases
define ptx_kernel void @syncwarp_transpose(ptr addrspace(1) noalias readonly %in, ptr addrspace(1) noalias %out, i32 %ntiles) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %warp = lshr i32 %tid, 5
  %lane = and i32 %tid, 31
  %w64 = zext i32 %warp to i64
  %l64 = zext i32 %lane to i64
  %ctaid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %wg = shl i32 %ctaid, 3
  %first = add i32 %wg, %warp
  %nct = tail call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %stride = shl i32 %nct, 3
  %go = icmp slt i32 %first, %ntiles
  br i1 %go, label %tile, label %exit

tile:
  %t = phi i32 [ %first, %entry ], [ %tn, %tdone ]
  %tb = mul i32 %t, 1024
  br label %rd

rd:
  %r = phi i32 [ 0, %tile ], [ %r1, %rd ]
  %row = mul i32 %r, 32
  %e = add i32 %tb, %row
  %e2 = add i32 %e, %lane
  %e64 = zext i32 %e2 to i64
  %pin = getelementptr inbounds float, ptr addrspace(1) %in, i64 %e64
  %v = load float, ptr addrspace(1) %pin, align 4
  %r64 = zext i32 %r to i64
  %ps = getelementptr inbounds [8 x [32 x [33 x float]]], ptr addrspace(3) @wtile, i64 0, i64 %w64, i64 %r64, i64 %l64
  store float %v, ptr addrspace(3) %ps, align 4
  %r1 = add nuw nsw i32 %r, 1
  %rc = icmp eq i32 %r1, 32
  br i1 %rc, label %mid, label %rd

mid:
  tail call void @llvm.nvvm.bar.warp.sync(i32 -1)
  br label %wr

wr:
  %c = phi i32 [ 0, %mid ], [ %c1, %wr ]
  %c64 = zext i32 %c to i64
  %pt = getelementptr inbounds [8 x [32 x [33 x float]]], ptr addrspace(3) @wtile, i64 0, i64 %w64, i64 %l64, i64 %c64
  %w = load float, ptr addrspace(3) %pt, align 4
  %crow = mul i32 %c, 32
  %f = add i32 %tb, %crow
  %f2 = add i32 %f, %lane
  %f64 = zext i32 %f2 to i64
  %po = getelementptr inbounds float, ptr addrspace(1) %out, i64 %f64
  store float %w, ptr addrspace(1) %po, align 4
  %c1 = add nuw nsw i32 %c, 1
  %cc = icmp eq i32 %c1, 32
  br i1 %cc, label %tdone, label %wr

tdone:
  tail call void @llvm.nvvm.bar.warp.sync(i32 -1)
  %tn = add i32 %t, %stride
  %more = icmp slt i32 %tn, %ntiles
  br i1 %more, label %tile, label %exit

exit:
  ret void
}

; sum over the lanes whose value passes a test, with the group mask from a ballot and a partial-mask syncwarp
define ptx_kernel void @coalesced_reduce(ptr addrspace(1) noalias readonly %in, ptr addrspace(1) noalias %out, float %lo) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %pin = getelementptr inbounds float, ptr addrspace(1) %in, i64 %tid64
  %x = load float, ptr addrspace(1) %pin, align 4
  %ok = fcmp ogt float %x, %lo
  %grp = tail call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %ok)
  br i1 %ok, label %red, label %exit

red:
  %lane = and i32 %tid, 31
  br label %step

step:
  %d = phi i32 [ 16, %red ], [ %d1, %step ]
  %acc = phi float [ %x, %red ], [ %acc1, %step ]
  %src = add i32 %lane, %d
  %r = tail call { float, i1 } @llvm.nvvm.shfl.sync.idx.f32p(i32 %grp, float %acc, i32 %src, i32 31)
  %rv = extractvalue { float, i1 } %r, 0
  %rin = extractvalue { float, i1 } %r, 1
  %bit = shl i32 1, %src
  %mem = and i32 %grp, %bit
  %inmask = icmp ne i32 %mem, 0
  %use = and i1 %rin, %inmask
  %add = select i1 %use, float %rv, float 0.0
  %acc1 = fadd float %acc, %add
  %d1 = lshr i32 %d, 1
  %dz = icmp eq i32 %d1, 0
  br i1 %dz, label %fin, label %step

fin:
  tail call void @llvm.nvvm.bar.warp.sync(i32 %grp)
  %lead = tail call i32 @llvm.cttz.i32(i32 %grp, i1 true)
  %me = icmp eq i32 %lane, %lead
  br i1 %me, label %st, label %exit

st:
  %wid = lshr i32 %tid, 5
  %wid64 = zext i32 %wid to i64
  %po = getelementptr inbounds float, ptr addrspace(1) %out, i64 %wid64
  store float %acc1, ptr addrspace(1) %po, align 4
  br label %exit

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
declare i32 @llvm.cttz.i32(i32, i1)
declare i32 @llvm.ctpop.i32(i32)
declare i32 @llvm.nvvm.shfl.sync.idx.i32(i32, i32, i32, i32)
declare { float, i1 } @llvm.nvvm.shfl.sync.idx.f32p(i32, float, i32, i32)
declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1)
declare void @llvm.nvvm.bar.warp.sync(i32)
