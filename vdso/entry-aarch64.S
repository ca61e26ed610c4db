/* arm64's signal return trampoline, with Linux 6.1's code bytes (the future signal delivery
 * sets a handler's return address here): a NOP for unwinders to find the function by, then
 * rt_sigreturn (139). */
	.text
	nop
	.globl __kernel_rt_sigreturn
	.type __kernel_rt_sigreturn, %function
__kernel_rt_sigreturn:
	mov	x8, #139
	svc	#0
	.size __kernel_rt_sigreturn, . - __kernel_rt_sigreturn

	.section .note.GNU-stack, "", %progbits
