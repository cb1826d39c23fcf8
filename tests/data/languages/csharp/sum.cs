using System;

class Sum
{
    static void Main()
    {
        int t = int.Parse(Console.ReadLine().Trim());
        for (int i = 0; i < t; i++)
        {
            var p = Console.ReadLine().Split(new[] { ' ' }, StringSplitOptions.RemoveEmptyEntries);
            Console.WriteLine(long.Parse(p[0]) + long.Parse(p[1]));
        }
    }
}
