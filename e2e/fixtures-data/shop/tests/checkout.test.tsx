import { CheckoutBanner } from '../components/CheckoutBanner';

test('the new checkout banner renders', () => {
  expect(CheckoutBanner).toBeDefined();
});
