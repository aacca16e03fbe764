; corpus: cpu=sm_75 features=+ptx90
; match.any / match.all and vote.* in the shapes of real warp code: grouping equal keys with match.any.sync.i64
; before a hash-table insert (CAS probe loop on global memory, one atomic per group), a vote.uni / match.all fast
; path with a slow path that walks the ballot bits lane by lane (shfl.sync.idx in a loop), vote.any loop exit.
target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @hash_count_match(ptr addrspace(1) noalias readonly %keys, ptr addrspace(1) %table_keys,
                                         ptr addrspace(1) %table_vals, i32 %n, i32 %cap_mask) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %b = mul i32 %ctaid, %ntid
  %gi = add i32 %b, %tid
  %in = icmp slt i32 %gi, %n
  br i1 %in, label %body, label %exit

body:
  %gi64 = sext i32 %gi to i64
  %pk = getelementptr inbounds i64, ptr addrspace(1) %keys, i64 %gi64
  %k = load i64, ptr addrspace(1) %pk, align 8
  %mask = tail call i32 @llvm.nvvm.activemask()
  %peers = tail call i32 @llvm.nvvm.match.any.sync.i64(i32 %mask, i64 %k)
  %lane = and i32 %tid, 31
  %leader = tail call i32 @llvm.cttz.i32(i32 %peers, i1 true)
  %islead = icmp eq i32 %lane, %leader
  br i1 %islead, label %insert, label %exit

insert:
  %cnt = tail call i32 @llvm.ctpop.i32(i32 %peers)
  %h0 = mul i64 %k, -7046029254386353131
  %h1 = lshr i64 %h0, 32
  %h = trunc i64 %h1 to i32
  br label %probe

probe:
  %slot = phi i32 [ %h, %insert ], [ %next, %taken ]
  %s = and i32 %slot, %cap_mask
  %s64 = zext i32 %s to i64
  %pks = getelementptr inbounds i64, ptr addrspace(1) %table_keys, i64 %s64
  %cx = cmpxchg ptr addrspace(1) %pks, i64 -1, i64 %k syncscope("device") monotonic monotonic, align 8
  %old = extractvalue { i64, i1 } %cx, 0
  %won = extractvalue { i64, i1 } %cx, 1
  %same = icmp eq i64 %old, %k
  %mine = or i1 %won, %same
  br i1 %mine, label %bump, label %taken

taken:
  %next = add i32 %slot, 1
  br label %probe

bump:
  %pv = getelementptr inbounds i32, ptr addrspace(1) %table_vals, i64 %s64
  %r = atomicrmw add ptr addrspace(1) %pv, i32 %cnt syncscope("device") monotonic, align 4
  br label %exit

exit:
  ret void
}

define ptx_kernel void @vote_uniform_paths(ptr addrspace(1) noalias readonly %sel, ptr addrspace(1) noalias readonly %val,
                                           ptr addrspace(1) noalias %out) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %ps = getelementptr inbounds i32, ptr addrspace(1) %sel, i64 %tid64
  %s = load i32, ptr addrspace(1) %ps, align 4
  %pv = getelementptr inbounds i64, ptr addrspace(1) %val, i64 %tid64
  %v = load i64, ptr addrspace(1) %pv, align 8
  %odd = trunc i32 %s to i1
  %uni = tail call i1 @llvm.nvvm.vote.uni.sync(i32 -1, i1 %odd)
  %ma = tail call { i32, i1 } @llvm.nvvm.match.all.sync.i64p(i32 -1, i64 %v)
  %allsame = extractvalue { i32, i1 } %ma, 1
  %fast = and i1 %uni, %allsame
  br i1 %fast, label %fastpath, label %slow

fastpath:
  %t = trunc i64 %v to i32
  %r0 = mul i32 %t, %s
  br label %done

slow:
  %bal = tail call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %odd)
  %vi = trunc i64 %v to i32
  br label %walk

walk:
  %m = phi i32 [ %bal, %slow ], [ %m1, %wbody ]
  %acc = phi i32 [ 0, %slow ], [ %acc1, %wbody ]
  %nz = icmp ne i32 %m, 0
  br i1 %nz, label %wbody, label %wend

wbody:
  %src = tail call i32 @llvm.cttz.i32(i32 %m, i1 true)
  %got = tail call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %vi, i32 %src, i32 31)
  %acc1 = add i32 %acc, %got
  %mm = add i32 %m, -1
  %m1 = and i32 %m, %mm
  br label %walk

wend:
  %all = tail call i1 @llvm.nvvm.vote.all.sync(i32 -1, i1 %odd)
  %alli = zext i1 %all to i32
  %r1 = add i32 %acc, %alli
  br label %done

done:
  %r = phi i32 [ %r0, %fastpath ], [ %r1, %wend ]
  br label %spin

spin:
  %it = phi i32 [ 0, %done ], [ %it1, %spin ]
  %x = phi i32 [ %r, %done ], [ %x1, %spin ]
  %x1 = lshr i32 %x, 1
  %it1 = add i32 %it, 1
  %big = icmp ugt i32 %x1, 1000
  %any = tail call i1 @llvm.nvvm.vote.any.sync(i32 -1, i1 %big)
  br i1 %any, label %spin, label %fin

fin:
  %po = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %tid64
  %res = add i32 %x1, %it1
  store i32 %res, ptr addrspace(1) %po, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.activemask()
declare i32 @llvm.nvvm.match.any.sync.i64(i32, i64)
declare { i32, i1 } @llvm.nvvm.match.all.sync.i64p(i32, i64)
declare i1 @llvm.nvvm.vote.uni.sync(i32, i1)
declare i1 @llvm.nvvm.vote.all.sync(i32, i1)
declare i1 @llvm.nvvm.vote.any.sync(i32, i1)
declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1)
declare i32 @llvm.nvvm.shfl.sync.idx.i32(i32, i32, i32, i32)
declare i32 @llvm.cttz.i32(i32, i1)
declare i32 @llvm.ctpop.i32(i32)
