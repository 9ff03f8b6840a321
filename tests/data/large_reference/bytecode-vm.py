from math import gcd

from common import args, out

a, b, c = args((200, 50, 20))
HALT, PUSH, LOAD, STORE, ADD, SUB, MUL, DIV, MOD, LT, EQ, JMP, JZ, PRINT, DUP, CALL, RET = range(17)
SQUARES = [(PUSH, 0), (STORE, 1), (PUSH, 1), (STORE, 0), (LOAD, 2), (LOAD, 0), (LT, 0), (JZ, 9), (JMP, 20),
           (LOAD, 0), (DUP, 0), (MUL, 0), (LOAD, 1), (ADD, 0), (STORE, 1), (LOAD, 0), (PUSH, 1), (ADD, 0),
           (STORE, 0), (JMP, 4), (LOAD, 1), (PRINT, 0), (HALT, 0)]
COLLATZ = [(PUSH, 1), (STORE, 0), (PUSH, 0), (STORE, 1), (LOAD, 2), (LOAD, 0), (LT, 0), (JZ, 9), (JMP, 17),
           (LOAD, 0), (STORE, 3), (CALL, 20), (LOAD, 0), (PUSH, 1), (ADD, 0), (STORE, 0), (JMP, 4),
           (LOAD, 1), (PRINT, 0), (HALT, 0),
           (LOAD, 3), (PUSH, 1), (EQ, 0), (JZ, 25), (RET, 0), (LOAD, 3), (PUSH, 2), (MOD, 0), (JZ, 36),
           (LOAD, 3), (PUSH, 3), (MUL, 0), (PUSH, 1), (ADD, 0), (STORE, 3), (JMP, 40),
           (LOAD, 3), (PUSH, 2), (DIV, 0), (STORE, 3),
           (LOAD, 1), (PUSH, 1), (ADD, 0), (STORE, 1), (JMP, 20)]
GCDS = [(PUSH, 0), (STORE, 3), (PUSH, 1), (STORE, 0), (LOAD, 2), (LOAD, 0), (LT, 0), (JZ, 9), (JMP, 43),
        (PUSH, 1), (STORE, 1), (LOAD, 2), (LOAD, 1), (LT, 0), (JZ, 16), (JMP, 38),
        (LOAD, 0), (STORE, 4), (LOAD, 1), (STORE, 5),
        (LOAD, 5), (JZ, 29), (LOAD, 4), (LOAD, 5), (MOD, 0), (LOAD, 5), (STORE, 4), (STORE, 5), (JMP, 20),
        (LOAD, 3), (LOAD, 4), (ADD, 0), (STORE, 3), (LOAD, 1), (PUSH, 1), (ADD, 0), (STORE, 1), (JMP, 11),
        (LOAD, 0), (PUSH, 1), (ADD, 0), (STORE, 0), (JMP, 4), (LOAD, 3), (PRINT, 0), (HALT, 0)]
BINARY = {ADD: lambda x, y: x + y, SUB: lambda x, y: x - y, MUL: lambda x, y: x * y, DIV: lambda x, y: x // y,
          MOD: lambda x, y: x % y, LT: lambda x, y: int(x < y), EQ: lambda x, y: int(x == y)}


def run(code, value):
    regs, stack, calls, pc, steps, printed = [0] * 8, [], [], 0, 0, []
    regs[2] = value
    while True:
        op, arg = code[pc]
        pc += 1
        steps += 1
        if op == HALT:
            return printed, steps
        if op == PUSH:
            stack.append(arg)
        elif op == LOAD:
            stack.append(regs[arg])
        elif op == STORE:
            regs[arg] = stack.pop()
        elif op in BINARY:
            y, x = stack.pop(), stack.pop()
            stack.append(BINARY[op](x, y))
        elif op == JMP:
            pc = arg
        elif op == JZ:
            if stack.pop() == 0:
                pc = arg
        elif op == PRINT:
            printed.append(stack.pop())
        elif op == DUP:
            stack.append(stack[-1])
        elif op == CALL:
            calls.append(pc)
            pc = arg
        elif op == RET:
            pc = calls.pop()


def collatz_steps(x):
    steps = 0
    while x != 1:
        x = x // 2 if x % 2 == 0 else 3 * x + 1
        steps += 1
    return steps


expected = [sum(i * i for i in range(1, a + 1)), sum(collatz_steps(x) for x in range(1, b + 1)),
            sum(gcd(x, y) for x in range(1, c + 1) for y in range(1, c + 1))]
for code, value, want in zip((SQUARES, COLLATZ, GCDS), (a, b, c), expected):
    printed, steps = run(code, value)
    assert printed == [want]
    out(want)
    out(steps)
