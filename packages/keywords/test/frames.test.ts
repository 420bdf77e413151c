import { describe, expect, it } from 'vitest';
import { extractStackFrames } from '../src/frames.js';

const pick = (text: string) => extractStackFrames(text).map(({ file, line, symbol, depth }) => ({ file, line, symbol, depth }));

describe('extractStackFrames', () => {
  it('reads a Python traceback, innermost frame last', () => {
    const text = `Traceback (most recent call last):
  File "/srv/app/.venv/lib/python3.12/site-packages/flask/app.py", line 1511, in wsgi_app
    response = self.full_dispatch_request()
  File "/srv/app/shop/views.py", line 88, in checkout
    total = cart.total()
  File "/srv/app/shop/cart.py", line 42, in total
    return sum(item.price for item in self.items)
TypeError: unsupported operand type(s)`;
    expect(pick(text)).toEqual([
      { file: '/srv/app/.venv/lib/python3.12/site-packages/flask/app.py', line: 1511, symbol: 'wsgi_app', depth: 2 },
      { file: '/srv/app/shop/views.py', line: 88, symbol: 'checkout', depth: 1 },
      { file: '/srv/app/shop/cart.py', line: 42, symbol: 'total', depth: 0 },
    ]);
  });

  it('reads Java, C#, JavaScript, Ruby, Go and Rust traces, innermost frame first', () => {
    expect(pick('java.lang.NullPointerException\n\tat com.acme.shop.Cart.total(Cart.java:42)\n\tat com.acme.shop.Checkout$Step.run(Checkout.java:7)')).toEqual([
      { file: 'Cart.java', line: 42, symbol: 'com.acme.shop.Cart.total', depth: 0 },
      { file: 'Checkout.java', line: 7, symbol: 'com.acme.shop.Checkout.Step.run', depth: 1 },
    ]);
    expect(pick('   at Acme.Shop.Cart.Total(Int32 x) in C:\\src\\Shop\\Cart.cs:line 42')).toEqual([{ file: 'C:\\src\\Shop\\Cart.cs', line: 42, symbol: 'Acme.Shop.Cart.Total', depth: 0 }]);
    expect(pick('TypeError: x is undefined\n    at Cart.total (/app/src/cart.ts:42:7)\n    at async main (/app/src/index.js:3:1)\n    at /app/src/boot.mjs:1:2')).toEqual([
      { file: '/app/src/cart.ts', line: 42, symbol: 'Cart.total', depth: 0 },
      { file: '/app/src/index.js', line: 3, symbol: 'main', depth: 1 },
      { file: '/app/src/boot.mjs', line: 1, symbol: undefined, depth: 2 },
    ]);
    expect(pick("app/models/cart.rb:42:in `total'\n\tfrom app/controllers/checkout_controller.rb:7:in `block in create'")).toEqual([
      { file: 'app/models/cart.rb', line: 42, symbol: 'total', depth: 0 },
      { file: 'app/controllers/checkout_controller.rb', line: 7, symbol: 'create', depth: 1 },
    ]);
    expect(pick('goroutine 1 [running]:\ngithub.com/acme/shop.(*Cart).Total(0xc000010000)\n\t/home/dev/shop/cart.go:42 +0x1d')).toEqual([
      { file: '/home/dev/shop/cart.go', line: 42, symbol: 'shop.(*Cart).Total', depth: 0 },
    ]);
    expect(pick("thread 'main' panicked at src/cart.rs:42:5:\nattempt to add with overflow")).toEqual([{ file: 'src/cart.rs', line: 42, symbol: undefined, depth: 0 }]);
  });

  it('finds nothing in prose', () => {
    expect(extractStackFrames('the cart total is wrong at checkout when a coupon applies (see cart.py)')).toEqual([]);
  });
});
