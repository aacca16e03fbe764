; corpus: cpu=sm_75 features=+ptx90
; Warp intrinsics: shfl.sync idx/up/down/bfly (i32, f32, predicate-returning .p forms, sub-warp clamp), vote.sync
; all/any/uni/ballot, match.any/all (i32, i64), activemask, bar.warp.sync with a computed mask.
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @shfl_vote_match(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %src) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %pin = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %tid64
  %x = load i32, ptr addrspace(1) %pin, align 4
  %xf = bitcast i32 %x to float
  %s0 = tail call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %x, i32 %src, i32 31)
  %s1 = tail call i32 @llvm.nvvm.shfl.sync.up.i32(i32 -1, i32 %x, i32 1, i32 0)
  %s2 = tail call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %xf, i32 2, i32 31)
  %s3 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %x, i32 4, i32 31)
  ; width 16: c = ((32 - 16) << 8) | 0x1f for idx/down/bfly, (32-16) << 8 for up
  %s4 = tail call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 65535, i32 %x, i32 3, i32 4127)
  %s5p = tail call { i32, i1 } @llvm.nvvm.shfl.sync.up.i32p(i32 -1, i32 %x, i32 2, i32 4096)
  %s5 = extractvalue { i32, i1 } %s5p, 0
  %s5ok = extractvalue { i32, i1 } %s5p, 1
  %s5sel = select i1 %s5ok, i32 %s5, i32 0
  %s6p = tail call { float, i1 } @llvm.nvvm.shfl.sync.bfly.f32p(i32 -1, float %xf, i32 1, i32 6175)
  %s6 = extractvalue { float, i1 } %s6p, 0
  %s2i = bitcast float %s2 to i32
  %s6i = bitcast float %s6 to i32
  %pos = icmp sgt i32 %x, 0
  %odd = trunc i32 %x to i1
  %all = tail call i1 @llvm.nvvm.vote.all.sync(i32 -1, i1 %pos)
  %any = tail call i1 @llvm.nvvm.vote.any.sync(i32 -1, i1 %odd)
  %uni = tail call i1 @llvm.nvvm.vote.uni.sync(i32 -1, i1 %pos)
  %bal = tail call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %pos)
  %alli = zext i1 %all to i32
  %anyi = zext i1 %any to i32
  %unii = zext i1 %uni to i32
  %x64 = sext i32 %x to i64
  %m0 = tail call i32 @llvm.nvvm.match.any.sync.i32(i32 -1, i32 %x)
  %m1 = tail call i32 @llvm.nvvm.match.any.sync.i64(i32 -1, i64 %x64)
  %m2p = tail call { i32, i1 } @llvm.nvvm.match.all.sync.i32p(i32 -1, i32 %x)
  %m2 = extractvalue { i32, i1 } %m2p, 0
  %m2ok = extractvalue { i32, i1 } %m2p, 1
  %m2oki = zext i1 %m2ok to i32
  %m3p = tail call { i32, i1 } @llvm.nvvm.match.all.sync.i64p(i32 -1, i64 %x64)
  %m3 = extractvalue { i32, i1 } %m3p, 0
  %am = tail call i32 @llvm.nvvm.activemask()
  tail call void @llvm.nvvm.bar.warp.sync(i32 %bal)
  %t0 = add i32 %s0, %s1
  %t1 = add i32 %t0, %s2i
  %t2 = add i32 %t1, %s3
  %t3 = add i32 %t2, %s4
  %t4 = add i32 %t3, %s5sel
  %t5 = add i32 %t4, %s6i
  %t6 = add i32 %t5, %alli
  %t7 = add i32 %t6, %anyi
  %t8 = add i32 %t7, %unii
  %t9 = add i32 %t8, %bal
  %t10 = add i32 %t9, %m0
  %t11 = add i32 %t10, %m1
  %t12 = add i32 %t11, %m2
  %t13 = add i32 %t12, %m2oki
  %t14 = add i32 %t13, %m3
  %t15 = add i32 %t14, %am
  %pout = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %tid64
  store i32 %t15, ptr addrspace(1) %pout, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.shfl.sync.idx.i32(i32, i32, i32, i32)
declare i32 @llvm.nvvm.shfl.sync.up.i32(i32, i32, i32, i32)
declare float @llvm.nvvm.shfl.sync.down.f32(i32, float, i32, i32)
declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32)
declare { i32, i1 } @llvm.nvvm.shfl.sync.up.i32p(i32, i32, i32, i32)
declare { float, i1 } @llvm.nvvm.shfl.sync.bfly.f32p(i32, float, i32, i32)
declare i1 @llvm.nvvm.vote.all.sync(i32, i1)
declare i1 @llvm.nvvm.vote.any.sync(i32, i1)
declare i1 @llvm.nvvm.vote.uni.sync(i32, i1)
declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1)
declare i32 @llvm.nvvm.match.any.sync.i32(i32, i32)
declare i32 @llvm.nvvm.match.any.sync.i64(i32, i64)
declare { i32, i1 } @llvm.nvvm.match.all.sync.i32p(i32, i32)
declare { i32, i1 } @llvm.nvvm.match.all.sync.i64p(i32, i64)
declare i32 @llvm.nvvm.activemask()
declare void @llvm.nvvm.bar.warp.sync(i32)
