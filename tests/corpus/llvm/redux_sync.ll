; corpus: cpu=sm_80 features=+ptx90
; sm_80 warp reductions llvm.nvvm.redux.sync.{add,min,max,umin,umax,and,or,xor} with full and partial masks,
; inside a divergent branch for the partial mask.
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @redux_sync(ptr addrspace(1) %in, ptr addrspace(1) %out) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %pin = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %tid64
  %x = load i32, ptr addrspace(1) %pin, align 4
  %a = tail call i32 @llvm.nvvm.redux.sync.add(i32 %x, i32 -1)
  %b = tail call i32 @llvm.nvvm.redux.sync.min(i32 %x, i32 -1)
  %c = tail call i32 @llvm.nvvm.redux.sync.max(i32 %x, i32 -1)
  %d = tail call i32 @llvm.nvvm.redux.sync.umin(i32 %x, i32 -1)
  %e = tail call i32 @llvm.nvvm.redux.sync.umax(i32 %x, i32 -1)
  %f = tail call i32 @llvm.nvvm.redux.sync.and(i32 %x, i32 -1)
  %g = tail call i32 @llvm.nvvm.redux.sync.or(i32 %x, i32 -1)
  %h = tail call i32 @llvm.nvvm.redux.sync.xor(i32 %x, i32 -1)
  %s0 = add i32 %a, %b
  %s1 = add i32 %s0, %c
  %s2 = add i32 %s1, %d
  %s3 = add i32 %s2, %e
  %s4 = add i32 %s3, %f
  %s5 = add i32 %s4, %g
  %s6 = add i32 %s5, %h
  %lane = and i32 %tid, 31
  %low = icmp ult i32 %lane, 16
  br i1 %low, label %half, label %done

half:
  %p = tail call i32 @llvm.nvvm.redux.sync.add(i32 %x, i32 65535)
  br label %done

done:
  %r = phi i32 [ %s6, %entry ], [ %p, %half ]
  %pout = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %tid64
  store i32 %r, ptr addrspace(1) %pout, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.redux.sync.add(i32, i32)
declare i32 @llvm.nvvm.redux.sync.min(i32, i32)
declare i32 @llvm.nvvm.redux.sync.max(i32, i32)
declare i32 @llvm.nvvm.redux.sync.umin(i32, i32)
declare i32 @llvm.nvvm.redux.sync.umax(i32, i32)
declare i32 @llvm.nvvm.redux.sync.and(i32, i32)
declare i32 @llvm.nvvm.redux.sync.or(i32, i32)
declare i32 @llvm.nvvm.redux.sync.xor(i32, i32)
