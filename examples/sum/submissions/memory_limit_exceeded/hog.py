big = bytearray(1 << 30)
print(big[12345])
