import { memo } from 'react';
import { Button } from './Button';

export const ProductCard = memo(function ProductCard({ name, price }: { name: string; price: number }) {
  return (
    <div className="card">
      <h2>{name}</h2>
      <p>${price}</p>
      <Button label="Add to cart" />
    </div>
  );
});
