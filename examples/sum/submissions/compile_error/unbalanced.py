t = int(input()
print(t)
