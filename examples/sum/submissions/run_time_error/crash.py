t = int(input())
pairs = [input().split() for _ in range(t)]
print(pairs[t][0])  # IndexError: one past the end
